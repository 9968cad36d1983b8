// The part of oidc-provider's API the bench's peer uses (oidc-provider ships no types; @types/oidc-provider is not
// needed). Provider is a Koa application.
declare module 'oidc-provider' {
  import type Koa from 'koa';

  export interface KoaContextWithOIDC extends Koa.Context {
    oidc: { client?: { clientId: string } };
  }

  export default class Provider extends Koa {
    constructor(issuer: string, configuration?: Record<string, unknown>);
    readonly issuer: string;
  }
}
