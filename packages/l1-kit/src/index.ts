export { L1Kit, createL1Kit } from './kit.js';
export { NOTICE_PATH, type L1KitOptions } from './options.js';
export { bearerToken, hashToken } from './tokens.js';
export { NoticeReceiver } from './notices.js';
export { BACKCHANNEL_LOGOUT_EVENT } from './logout-tokens.js';
export { errorResponse } from './routes.js';
export {
  L1KitError,
  UnauthorizedError,
  TokenError,
  L2UnavailableError,
  SignInError,
  TOKEN_ERROR_CODES,
  type TokenErrorCode,
  type SignInErrorCode,
  type UnavailableReason,
  type Problem,
} from './errors.js';
export type { FetchLike } from './http.js';
export type {
  L2User,
  AuthResult,
  KitRequest,
  KitResponse,
  LogoutNotice,
  SignInResult,
  AuthorizationServerMetadata,
  RouteHooks,
} from './types.js';
export {
  watchLog,
  LogWatch,
  type LogWatchOptions,
  type LogWatchEvents,
  type LogStateStore,
  type LogCheck,
  type LogVerified,
  type LogFork,
  type LogMisbehaved,
  type LogUnreachable,
  type LogVerifierState,
  type LogVerificationFailure,
} from './log-watch.js';
