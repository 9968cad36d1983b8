/** The content types the service answers with, spelled once. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const AP_CONTENT_TYPE = 'application/activity+json; charset=utf-8';
export const JRD_CONTENT_TYPE = 'application/jrd+json; charset=utf-8';
