// The request arbitraries of the fuzz properties, built from the routes a running server serves.
import fc from 'fast-check';
import {
  acceptHeader,
  adversarialBody,
  bodyWithHeaders,
  credentials,
  fuzzSegment,
  headerValue,
  jsonText,
  METHODS,
  oddHeader,
  onTheWire,
  paramValue,
  pathFor,
  pick,
  queryString,
  schemaBody,
  wellFormedBody,
  STATIC_PATHS,
  ACCEPTS,
  formBody,
  type FuzzBody,
  type FuzzRequest,
  type Pair,
  type Part,
  type RouteSpec,
  type World,
} from './support.js';

const build = (
  method: string,
  path: string,
  headers: readonly (readonly Pair[])[],
  body?: { body: FuzzBody; headers: readonly Pair[] } | null,
): FuzzRequest => ({
  method,
  path,
  headers: [...headers.flat(), ...(body?.headers ?? [])],
  ...(body ? { body: body.body } : {}),
});

const unsafe = (route: RouteSpec) => route.method !== 'GET';

/**
 * Any route, as served: its own method mostly (sometimes another, or one Node's parser refuses), its path with
 * valid or fuzzed parameters, a fuzzed query, any Accept, any credentials, and a plausible body on unsafe routes.
 */
export function routeRequest(world: World): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...world.routes).chain((route) =>
    fc
      .record({
        method: pick<string>(
          { weight: 6, arbitrary: fc.constant(route.method) },
          { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
        ),
        path: pathFor(route.template),
        query: queryString,
        accept: acceptHeader,
        auth: credentials,
        body: pick<{ body: FuzzBody; headers: readonly Pair[] } | null>(
          { weight: unsafe(route) ? 1 : 6, arbitrary: fc.constant(null) },
          {
            weight: unsafe(route) ? 4 : 1,
            arbitrary: bodyWithHeaders(route, { parts: schemaBody(route.fields) }),
          },
        ),
      })
      .map(({ method, path, query, accept, auth, body }) =>
        build(method, path + query, [accept, auth], body),
      ),
  );
}

/** Path segments the service knows, to recombine with fuzzed ones. */
function knownSegments(world: World): string[] {
  const segments = new Set<string>();
  for (const route of world.routes) {
    for (const segment of route.template.split('/'))
      if (segment && !segment.startsWith('{')) segments.add(segment);
  }
  return [...segments, '{user}', '{asset}', '{jti}', 'alice', '0'];
}

/**
 * Arbitrary paths: known and fuzzed segments in any order — traversal, percent-encoding, `%00`, invalid UTF-8,
 * very long, unicode — and the static files with their names mangled.
 */
export function pathRequest(world: World): fc.Arbitrary<FuzzRequest> {
  const segment = pick<string>(
    { weight: 3, arbitrary: fc.constantFrom(...knownSegments(world)) },
    { weight: 2, arbitrary: fuzzSegment },
  );
  const staticPath = fc
    .tuple(
      fc.constantFrom(...STATIC_PATHS),
      fc.constantFrom('', '/', '%00', '.', '..', '/..', '~', '%2e', '?v=1', '.map'),
    )
    .chain(([path, suffix]) =>
      fc.constantFrom(
        path + suffix,
        path.toUpperCase(),
        path.replace('/static/', '/static/../static/'),
        path.replace('/static/', '/static/%2e%2e/static/'),
        path.replace('/static/', '/static//'),
        path.replace('/static/', '/static/..%2f..%2f..%2fpackage.json#'),
        path.replace(/\//g, '%2F'),
        `/static/${encodeURIComponent(path)}`,
      ),
    );
  const path = pick<string>(
    {
      weight: 4,
      arbitrary: fc
        .array(segment, { maxLength: 6 })
        .chain((segments) => fc.constantFrom('/', '//', '/./').map((lead) => lead + segments.join('/'))),
    },
    { weight: 2, arbitrary: staticPath },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '*',
        '/%',
        '/%2',
        '/%zz/../healthz',
        '/healthz/../../../etc/passwd',
        '/.well-known/../healthz',
        '/users/../../healthz',
        '\\..\\..\\',
        '/\u00ff',
        'http://l2.test/healthz',
        '//evil.example/healthz',
      ),
    },
  );
  return fc
    .record({
      method: pick<string>(
        { weight: 5, arbitrary: fc.constantFrom('GET', 'HEAD') },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      path: path.map(onTheWire),
      query: queryString,
      accept: acceptHeader,
      auth: credentials,
    })
    .map(({ method, path, query, accept, auth }) => build(method, path + query, [accept, auth]));
}

/**
 * Any route with odd headers: very long values, repeated headers (Authorization, Cookie, Content-Type, Accept,
 * Host twice), junk Authorization and Cookie, X-Forwarded-*, Range and caching headers.
 */
export function headerRequest(world: World): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...world.routes).chain((route) =>
    fc
      .record({
        path: pathFor(route.template, (name) =>
          fc.constantFrom(
            ...({ username: ['{user}'], name: ['{asset}'], jti: ['{jti}'], idx: ['0'] }[name] ?? ['x']),
          ),
        ),
        accept: acceptHeader,
        auth: credentials,
        odd: fc.array(oddHeader, { minLength: 1, maxLength: 6 }),
        repeated: fc.array(
          fc.constantFrom('Authorization', 'Cookie', 'Accept', 'Content-Type', 'Host', 'X-CSRF-Token'),
          {
            maxLength: 2,
          },
        ),
        repeatedValue: headerValue(60),
        body: unsafe(route)
          ? bodyWithHeaders(route, { parts: schemaBody(route.fields) }).map((b) => b as typeof b | null)
          : fc.constant(null),
      })
      .map(({ path, accept, auth, odd, repeated, repeatedValue, body }) => {
        const headers = [...accept, ...auth, ...odd];
        for (const name of repeated) {
          const existing = headers.find(([n]) => n.toLowerCase() === name.toLowerCase());
          headers.push([name, existing ? existing[1] : repeatedValue], [name, repeatedValue]);
        }
        return build(route.method, path, [headers], body);
      }),
  );
}

/**
 * An unsafe request to a route that needs a signed-in caller, authenticated by the session cookie, with a
 * well-formed JSON body but no valid CSRF token (none, junk in X-CSRF-Token or `_csrf`, or a forged l2_csrf).
 */
const withoutCsrfField = (fields: RouteSpec['fields']): RouteSpec['fields'] =>
  Object.fromEntries(Object.entries(fields).filter(([name]) => name !== '_csrf'));

export function csrfRequest(world: World): fc.Arbitrary<FuzzRequest> {
  const routes = world.routes.filter((r) => r.secured && unsafe(r) && r.kind === 'json');
  if (routes.length < 8) throw new Error(`only ${routes.length} secured unsafe routes`);
  // Path parameters that keep the request on its route: valid values, or anything percent-encoded.
  const param = (name: string) =>
    pick<string>(
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          ...({ username: ['{user}'], name: ['{asset}'], jti: ['{jti}'] }[name] ?? ['x']),
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .string({ minLength: 1, maxLength: 30 })
          .map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?')))
          .filter((s) => s !== '.' && s !== '..'),
      },
    );
  const plainJson = fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), {
    maxKeys: 5,
  });
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        path: pathFor(route.template, param, { suffixes: false }),
        seed: fc.constantFrom('', '; l2_csrf={csrfSeed}', '; l2_csrf=forged', '; l2_csrf='),
        header: fc.option(headerValue(60), { nil: undefined }),
        accept: acceptHeader,
        body: fc.option(
          fc.record({
            json: plainJson,
            // Without the form's own `_csrf` field (POST /oauth/authorize documents one): the body's CSRF token is
            // the fuzzed `csrf` below, never a valid one.
            fields: schemaBody(withoutCsrfField(route.fields)).filter((parts) =>
              parts.every((p) => typeof p === 'string'),
            ),
            csrf: fc.option(fc.string({ maxLength: 50 }), { nil: undefined }),
            useFields: fc.boolean(),
          }),
          { nil: undefined },
        ),
      })
      .map(({ path, seed, header, accept, body }) => {
        const headers: Pair[] = [['Cookie', `l2_token={token}${seed}`], ...accept];
        if (header !== undefined) headers.push(['X-CSRF-Token', header]);
        let parts: readonly Part[] | undefined;
        if (body) {
          const object = body.csrf === undefined ? body.json : { ...body.json, _csrf: body.csrf };
          parts = body.useFields ? body.fields : [JSON.stringify(object)];
        }
        return build(
          route.method,
          path,
          [headers],
          parts ? { body: { parts }, headers: [['Content-Type', 'application/json']] } : null,
        );
      }),
  );
}

/** Every route that takes a body (and, now and then, one that does not), with adversarial bodies. */
export function bodyRequest(world: World): fc.Arbitrary<FuzzRequest> {
  const withBody = world.routes.filter((r) => unsafe(r) && r.kind !== 'inbox');
  const withoutBody = world.routes.filter((r) => !unsafe(r));
  return pick<RouteSpec>(
    { weight: 6, arbitrary: fc.constantFrom(...withBody) },
    { weight: 1, arbitrary: fc.constantFrom(...withoutBody) },
  ).chain((route) =>
    fc
      .record({
        path: pathFor(route.template, (name) =>
          pick<string>(
            {
              weight: 4,
              arbitrary: fc.constantFrom(
                ...({ username: ['{user}'], name: ['{asset}'], jti: ['{jti}'] }[name] ?? ['0']),
              ),
            },
            { weight: 1, arbitrary: fuzzSegment },
          ),
        ),
        accept: acceptHeader,
        auth: credentials,
        body: bodyWithHeaders(route),
      })
      .map(({ path, accept, auth, body }) => build(route.method, path, [accept, auth], body)),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Inboxes

const str = (s: string) => JSON.stringify(s);

const ACTORS = [
  'http://l2.test/users/{user}',
  'http://l2.test/users/alice',
  'http://l2.test/actor',
  'https://remote.example/users/bob',
  'http://127.0.0.1:1/actor',
  'http://[::1]:1/actor',
  'http://169.254.169.254/latest/meta-data',
  'file:///etc/passwd',
  'https://remote.example/users/bob#main-key',
  'https://user:pw@remote.example/users/bob',
  '',
];

const activityValue = pick<readonly Part[]>(
  { weight: 3, arbitrary: fc.constantFrom(...ACTORS).map((a) => [str(a)]) },
  { weight: 2, arbitrary: jsonText.map((s) => [s]) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('Follow', 'Person', 'Note', 'Tombstone'), fc.constantFrom(...ACTORS))
      .map(([type, id]) => [
        `{"type":${str(type)},"id":${str(id)},"actor":${str(ACTORS[0]!)},"object":${str(id)}}`,
      ]),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('"x",', '{},', '0,')
      .map((u) => ['[', { repeat: u, times: 9999 }, u.slice(0, -1), ']']),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 20000 })
      .map((n) => [{ repeat: '{"a":', times: n }, '1', { repeat: '}', times: n }]),
  },
);

/** What a signed activity's actor and object mostly are: the signing peer, the local user, a Follow between them. */
const PEER_FOLLOW =
  '{"type":"Follow","id":"{peer}/follows/1","actor":"{peer}","object":"http://l2.test/users/{user}"}';
const signedActor = pick<readonly Part[]>(
  { weight: 4, arbitrary: fc.constant(['"{peer}"']) },
  { weight: 1, arbitrary: fc.constant(['{"id":"{peer}","type":"Person"}']) },
  { weight: 2, arbitrary: activityValue },
);
const signedObject = pick<readonly Part[]>(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ['"http://l2.test/users/{user}"'],
      ['"{peer}"'],
      [PEER_FOLLOW],
      ['"http://l2.test/users/alice"'],
      ['"http://l2.test/actor"'],
      ['"http://l2.test/assets/{asset}"'],
    ),
  },
  { weight: 2, arbitrary: activityValue },
);

/**
 * An activity: @context, id, type, actor, object and extra fields, each plausible or adversarial. `signed` ones
 * come mostly from the signing peer, so a valid signature carries them to the use case.
 */
const activityBody = (signed: boolean): fc.Arbitrary<readonly Part[]> =>
  fc
    .record({
      context: fc.constantFrom(
        '"https://www.w3.org/ns/activitystreams"',
        '["https://www.w3.org/ns/activitystreams","https://w3id.org/security/v1"]',
        '{"@vocab":"http://evil.example/"}',
        '"http://127.0.0.1:1/context"',
        'null',
        '[]',
        '[null,{"__proto__":{"x":1}}]',
      ),
      id: fc.constantFrom(
        '{peer}/activities/1',
        'https://remote.example/activities/1',
        'http://l2.test/activities/0',
        '',
        'urn:uuid:1',
      ),
      type: pick<string>(
        {
          weight: 4,
          arbitrary: fc
            .constantFrom(
              'Follow',
              'Undo',
              'Delete',
              'Create',
              'Update',
              'Accept',
              'Reject',
              'Like',
              'Announce',
              'Move',
              'follow',
              '',
            )
            .map(str),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom('["Follow","Undo"]', '[]', 'null', '1', '{"__proto__":"Follow"}'),
        },
      ),
      actor: signed ? signedActor : activityValue,
      object: signed ? signedObject : activityValue,
      extra: fc.array(
        fc.tuple(
          fc.constantFrom(
            '__proto__',
            'constructor',
            'signature',
            'to',
            'cc',
            'inReplyTo',
            'content',
            'published',
            '@id',
            '@type',
          ),
          activityValue,
        ),
        { maxLength: 3 },
      ),
      omit: pick<string[]>(
        { weight: signed ? 6 : 2, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.subarray(['@context', 'id', 'type', 'actor', 'object']) },
      ),
    })
    .map(({ context, id, type, actor, object, extra, omit }) => {
      const fields: [string, readonly Part[]][] = [
        ['@context', [context]],
        ['id', [str(id)]],
        ['type', [type]],
        ['actor', actor],
        ['object', object],
        ...extra,
      ];
      const parts: Part[] = ['{'];
      fields
        .filter(([name]) => !omit.includes(name))
        .forEach(([name, value], i) => parts.push(...(i > 0 ? [','] : []), str(name), ':', ...value));
      parts.push('}');
      return parts;
    });

const KEY_IDS = [
  'http://l2.test/users/{user}#main-key',
  'http://l2.test/actor#main-key',
  'https://remote.example/users/bob#main-key',
  'http://127.0.0.1:1/actor#main-key',
  'file:///etc/passwd',
  '',
  '{*3000:x}',
];

/** Signature-related headers: draft-cavage and RFC 9421, plausible or mangled, with a real or a wrong digest. */
const signatureHeaders: fc.Arbitrary<readonly Pair[]> = fc
  .record({
    keyId: fc.constantFrom(...KEY_IDS),
    algorithm: fc.constantFrom('rsa-sha256', 'hs2019', 'ed25519', '', 'none'),
    covered: fc.constantFrom(
      '(request-target) host date digest',
      '(request-target)',
      '',
      'date',
      '(created) (expires)',
    ),
    signature: fc.constantFrom('AAAA', '', '!!!', '{*684:A}', '=='),
    date: fc.constantFrom(
      '{date}',
      'Thu, 01 Jan 1970 00:00:00 GMT',
      'garbage',
      '',
      'Fri, 31 Dec 9999 23:59:59 GMT',
    ),
    digest: fc.constantFrom('SHA-256={digest}', 'SHA-256=AAAA', 'MD5=abc', 'sha-256={digest}', ''),
    style: fc.constantFrom('cavage', 'rfc9421', 'both', 'junk', 'none'),
    junk: headerValue(120),
  })
  .map(({ keyId, algorithm, covered, signature, date, digest, style, junk }) => {
    const headers: Pair[] = [['Date', date]];
    if (style === 'cavage' || style === 'both') {
      headers.push(
        [
          'Signature',
          `keyId="${keyId}",algorithm="${algorithm}",headers="${covered}",signature="${signature}"`,
        ],
        ['Digest', digest],
      );
    }
    if (style === 'rfc9421' || style === 'both') {
      headers.push(
        [
          'Signature-Input',
          `sig1=("@method" "@target-uri" "content-digest");keyid="${keyId}";alg="rsa-v1_5-sha256";created=${Math.floor(Date.now() / 1000)}`,
        ],
        ['Signature', `sig1=:${signature}:`],
        ['Content-Digest', `sha-256=:{digest}:`],
      );
    }
    if (style === 'junk') headers.push(['Signature', junk], ['Signature-Input', junk], ['Digest', junk]);
    return headers;
  });

/** POST /inbox and POST /users/{u}/inbox with adversarial activities, content types and signatures. */
export function inboxRequest(world: World): fc.Arbitrary<FuzzRequest> {
  const inboxes = world.routes.filter((r) => r.kind === 'inbox');
  if (inboxes.length !== 2) throw new Error(`expected two inbox routes, found ${inboxes.length}`);
  return fc.constantFrom(...inboxes).chain((route) =>
    fc
      .record({
        path: pathFor(route.template),
        accept: pick<readonly Pair[]>(
          { weight: 2, arbitrary: fc.constant([]) },
          { weight: 1, arbitrary: fc.constantFrom(...ACCEPTS).map((a) => [['Accept', a] as Pair]) },
        ),
        signature: signatureHeaders,
        body: bodyWithHeaders(route, {
          parts: pick<readonly Part[]>(
            { weight: 4, arbitrary: activityBody(false) },
            { weight: 1, arbitrary: schemaBody(route.fields) },
            { weight: 2, arbitrary: adversarialBody },
          ),
        }),
      })
      .map(({ path, accept, signature, body }) => build('POST', path, [accept, signature], body)),
  );
}

/**
 * Inbox requests validly signed (draft-cavage rsa-sha256 over (request-target), host, date and digest) by a real
 * remote actor on 127.0.0.1, so the adversarial activity gets past the signature check into the use case.
 */
export function signedInboxRequest(world: World): fc.Arbitrary<FuzzRequest> {
  const inboxes = world.routes.filter((r) => r.kind === 'inbox');
  return fc.constantFrom(...inboxes).chain((route) =>
    fc
      .record({
        path: pathFor(route.template, (name) =>
          pick<string>(
            { weight: 6, arbitrary: fc.constant(name === 'username' ? '{user}' : 'x') },
            { weight: 1, arbitrary: paramValue(name) },
          ),
        ),
        // The host of PUBLIC_URL, which the signature must be addressed to.
        host: fc.constantFrom('l2.test', 'l2.test', 'l2.test', 'L2.TEST', 'l2.test:80', 'evil.example'),
        date: fc.constantFrom('{date}', '{date}', '{date}', 'Thu, 01 Jan 1970 00:00:00 GMT'),
        digest: fc.constantFrom('SHA-256={digest}', 'SHA-256={digest}', 'SHA-256={digest}', 'SHA-256=AAAA'),
        body: bodyWithHeaders(route, {
          parts: pick<readonly Part[]>(
            { weight: 5, arbitrary: activityBody(true) },
            { weight: 1, arbitrary: adversarialBody },
          ),
          cleanInTen: 8,
        }),
      })
      .map(({ path, host, date, digest, body }) =>
        build(
          'POST',
          path,
          [
            [
              ['Host', host],
              ['Date', date],
              ['Digest', digest],
              ['Signature', '{signature}'],
            ],
          ],
          body,
        ),
      ),
  );
}

/**
 * A write meant to succeed: an unsafe route with valid parameters, a session (bearer, or cookie with its CSRF
 * token) and a well-formed body — the raw material of races.
 */
export function writeRequest(world: World): fc.Arbitrary<FuzzRequest> {
  const writes = world.routes.filter((r) => unsafe(r) && r.kind !== 'inbox');
  return fc.constantFrom(...writes).chain((route) =>
    fc
      .record({
        path: pathFor(
          route.template,
          (name) =>
            fc.constantFrom(...({ username: ['{user}'], name: ['{asset}'], jti: ['{jti}'] }[name] ?? ['0'])),
          { suffixes: false },
        ),
        auth: fc.constantFrom<readonly Pair[]>(
          [['Authorization', 'Bearer {token}']],
          [
            ['Cookie', 'l2_token={token}; l2_csrf={csrfSeed}'],
            ['X-CSRF-Token', '{csrf}'],
          ],
        ),
        body: wellFormedBody(route.fields),
      })
      .map(({ path, auth, body }) =>
        build(route.method, path, [auth, [['Content-Type', 'application/json']]], {
          body: { parts: body },
          headers: [],
        }),
      ),
  );
}

/**
 * Requests sent at the same moment: one write repeated (two registrations of a name, two deletes of an asset, two
 * logouts…), or a mix of writes, reads and signed activities.
 */
export function concurrentBatch(world: World): fc.Arbitrary<readonly FuzzRequest[]> {
  const write = writeRequest(world);
  return pick<readonly FuzzRequest[]>(
    {
      weight: 2,
      arbitrary: fc
        .tuple(write, fc.integer({ min: 2, max: 5 }))
        .map(([request, n]) => Array.from({ length: n }, () => request)),
    },
    {
      weight: 1,
      arbitrary: fc.array(
        pick<FuzzRequest>(
          { weight: 3, arbitrary: write },
          { weight: 2, arbitrary: routeRequest(world) },
          { weight: 1, arbitrary: signedInboxRequest(world) },
        ),
        { minLength: 2, maxLength: 5 },
      ),
    },
  );
}

/**
 * HTML form posts that pass the CSRF check: signed-out forms (login, register, with `next`) and a signed-in
 * browser's forms (assets, method override, password, renderers, account deletion), with fuzzed fields — the
 * paths that show a refused form again with what was typed.
 */
export function formRequest(world: World): fc.Arbitrary<FuzzRequest> {
  const forms = world.routes.filter(
    (r) => unsafe(r) && r.kind !== 'inbox' && Object.keys(r.fields).length > 0,
  );
  return fc.constantFrom(...forms).chain((route) => {
    const signedOut = /^\/auth\/(login|register)$/.test(route.template);
    const fields = signedOut ? { ...route.fields, next: 'string' } : route.fields;
    return fc
      .record({
        path: pathFor(route.template, (name) =>
          pick<string>(
            {
              weight: 4,
              arbitrary: fc.constantFrom(
                ...({ username: ['{user}'], name: ['{asset}'], jti: ['{jti}'] }[name] ?? ['0']),
              ),
            },
            { weight: 1, arbitrary: fuzzSegment },
          ),
        ),
        accept: pick<readonly Pair[]>(
          {
            weight: 3,
            arbitrary: fc.constant([['Accept', 'text/html,application/xhtml+xml,*/*;q=0.8'] as Pair]),
          },
          { weight: 1, arbitrary: acceptHeader },
        ),
        body: bodyWithHeaders(route, {
          parts: formBody(fields),
          type: 'application/x-www-form-urlencoded',
          cleanInTen: 7,
        }),
      })
      .map(({ path, accept, body }) => {
        const [first, ...rest] = body.body.parts;
        const csrf = signedOut ? '_csrf={csrfOut}' : '_csrf={csrf}';
        const parts =
          typeof first === 'string' ? [`${first}&${csrf}`, ...rest] : [csrf, '&', ...body.body.parts];
        const cookie = signedOut ? 'l2_csrf={csrfSeed}' : 'l2_token={token}; l2_csrf={csrfSeed}';
        return build(route.method, path, [accept, [['Cookie', cookie]]], {
          body: { ...body.body, parts },
          headers: body.headers,
        });
      });
  });
}
