// What every store's domain rules share: the key ranges a block removes followers by, and the lanes it drops.
import { hostKey, hostKeyOfUrl, ruleCovers, type RuleHost } from '../../domain/domain-rules.js';

/** The lanes (origins) among `lanes` whose host one of `hosts` covers; a lane that is no URL is no one's. */
export function coveredLanes(lanes: readonly (string | null)[], hosts: readonly RuleHost[]): string[] {
  const ruleKeys = hosts.map(hostKey);
  return lanes.filter((lane): lane is string => {
    const key = lane === null ? null : hostKeyOfUrl(lane);
    return key !== null && ruleKeys.some((ruleKey) => ruleCovers(ruleKey, key));
  });
}
