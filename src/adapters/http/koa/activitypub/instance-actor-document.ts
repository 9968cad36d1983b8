import { AS_CONTEXT, SECURITY_CONTEXT, type Urls } from '../../../../domain/activity-streams.js';

/**
 * The service's own actor, an Application as Mastodon's instance actor is: it signs the GETs the service makes, so
 * servers in authorized-fetch mode can check who asks. Its preferredUsername is the host, which webfinger resolves.
 */
export function instanceActorDocument(
  urls: Urls,
  input: { host: string; publicKeyPem: string },
): Record<string, unknown> {
  const id = urls.instanceActor();
  return {
    '@context': [AS_CONTEXT, SECURITY_CONTEXT, { manuallyApprovesFollowers: 'as:manuallyApprovesFollowers' }],
    id,
    type: 'Application',
    preferredUsername: input.host,
    name: input.host,
    url: `${urls.base}/`,
    inbox: urls.sharedInbox(),
    endpoints: { sharedInbox: urls.sharedInbox() },
    manuallyApprovesFollowers: true,
    publicKey: { id: urls.instanceKeyId(), owner: id, publicKeyPem: input.publicKeyPem },
  };
}
