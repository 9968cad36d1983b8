// Actor resolution as a use-case test scripts it (until the kit's ScriptedFederation answers WebFinger and fresh
// lookups): names resolve to the actors given, every other name is refused with the field's path, and each call is
// recorded — so a test sees what was looked up, and that a refused request looked nothing up.
import type {
  ActorResolution,
  ResolutionRefusal,
  ResolvedActor,
} from '../../src/application/services/actor-resolution.js';
import { actorNameText, type ActorName } from '../../src/domain/actor-name.js';
import { err, ok, type Result } from '../../src/domain/result.js';
import type { Username } from '../../src/domain/user.js';

export interface ScriptedResolution {
  /** Actors by the name a person types (`https://…` or `@user@host`). */
  readonly actors: Map<string, Partial<ResolvedActor> & { id: string }>;
  /** Every name asked for, as typed back (actorNameText), in order. */
  readonly asked: string[];
  /** When set, every call answers this (e.g. rate_limited). */
  refusal: ResolutionRefusal | null;
}

/** Replaces `resolution.resolve` with the script; answers the script to fill in. */
export function scriptResolution(resolution: ActorResolution): ScriptedResolution {
  const script: ScriptedResolution = { actors: new Map(), asked: [], refusal: null };
  resolution.resolve = async (
    _asker: Username,
    name: ActorName,
    path: string,
  ): Promise<Result<ResolvedActor, ResolutionRefusal>> => {
    const text = actorNameText(name);
    script.asked.push(text);
    if (script.refusal) return err(script.refusal);
    const actor = script.actors.get(text);
    if (!actor) return err({ type: 'invalid_request', path, message: `${text} cannot be read.` });
    return ok({
      inbox: `${actor.id}/inbox`,
      sharedInbox: null,
      alsoKnownAs: [],
      movedTo: null,
      local: null,
      ...actor,
    });
  };
  return script;
}
