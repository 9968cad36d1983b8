// The one script of L2's pages: the WebAuthn ceremony, which only a browser's JavaScript can run. Every page works
// without it — the passkey buttons are hidden until this script finds WebAuthn, and nothing else depends on it.
// Written by hand (no library, no CDN): the browser's options and credentials to and from WebAuthn's JSON form.

const bytesOf = (base64url) => {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
};

const base64urlOf = (buffer) => {
  let text = '';
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const creationOptions = (json) => ({
  ...json,
  challenge: bytesOf(json.challenge),
  user: { ...json.user, id: bytesOf(json.user.id) },
  excludeCredentials: (json.excludeCredentials ?? []).map((c) => ({ ...c, id: bytesOf(c.id) })),
});

const requestOptions = (json) => ({
  ...json,
  challenge: bytesOf(json.challenge),
  allowCredentials: (json.allowCredentials ?? []).map((c) => ({ ...c, id: bytesOf(c.id) })),
});

/** A PublicKeyCredential in WebAuthn's JSON form (what `credential.toJSON()` gives in the newest browsers). */
function credentialJson(credential) {
  const r = credential.response;
  const response = { clientDataJSON: base64urlOf(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = base64urlOf(r.attestationObject);
    response.transports = typeof r.getTransports === 'function' ? r.getTransports() : [];
  } else {
    response.authenticatorData = base64urlOf(r.authenticatorData);
    response.signature = base64urlOf(r.signature);
    if (r.userHandle) response.userHandle = base64urlOf(r.userHandle);
  }
  return {
    id: credential.id,
    rawId: base64urlOf(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults(),
    ...(credential.authenticatorAttachment
      ? { authenticatorAttachment: credential.authenticatorAttachment }
      : {}),
  };
}

/** POSTs with no body; a signed-in page's request carries the CSRF token of its form. */
async function optionsFrom(url, form) {
  const csrf = form.elements._csrf?.value;
  const answer = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json', ...(csrf ? { 'x-csrf-token': csrf } : {}) },
    credentials: 'same-origin',
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(body.detail ?? `The service answered ${answer.status}.`);
  return body;
}

const say = (form, text) => {
  const status = form.querySelector('.passkey-status');
  if (status) status.textContent = text;
};

const explain = (error) =>
  error?.name === 'NotAllowedError'
    ? 'No passkey was used (cancelled, timed out, or none of this service on this device).'
    : error?.name === 'InvalidStateError'
      ? 'This device has a passkey of your account already.'
      : (error?.message ?? 'The passkey did not work.');

/** A passkey's answer to a fresh sign-in challenge, as JSON text. */
async function assertion(form) {
  const options = await optionsFrom('/auth/login/passkey/options', form);
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return JSON.stringify(credentialJson(credential));
}

/** A new passkey for the signed-in account, as JSON text. */
async function registration(form) {
  const options = await optionsFrom('/auth/passkeys/options', form);
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  return JSON.stringify(credentialJson(credential));
}

/** Confirms the change with a passkey instead of the password, then (on the add form) makes the new passkey. */
async function confirmWithPasskey(form) {
  const password = form.elements.current_password;
  if (password) {
    password.required = false;
    password.value = '';
  }
  if (!form.reportValidity()) return;
  form.elements.passkey.value = await assertion(form);
  if (form.dataset.passkey === 'register') form.elements.response.value = await registration(form);
  form.submit();
}

function wire(form) {
  const run = (work) => async (event) => {
    event.preventDefault();
    say(form, '');
    try {
      await work();
    } catch (error) {
      say(form, explain(error));
    }
  };
  const kind = form.dataset.passkey;
  if (kind === 'sign-in') {
    form.querySelector('[data-passkey-start]')?.addEventListener(
      'click',
      run(async () => {
        form.elements.response.value = await assertion(form);
        form.submit();
      }),
    );
  }
  if (kind === 'register') {
    form.addEventListener('submit', (event) => {
      if (form.elements.response.value) return;
      void run(async () => {
        form.elements.response.value = await registration(form);
        form.submit();
      })(event);
    });
  }
  form.querySelectorAll('[data-passkey-confirm]').forEach((button) =>
    button.addEventListener(
      'click',
      run(() => confirmWithPasskey(form)),
    ),
  );
}

if (window.PublicKeyCredential && navigator.credentials) {
  document
    .querySelectorAll(
      '[data-passkey-only], [data-passkey-start], [data-passkey-ready], [data-passkey-confirm]',
    )
    .forEach((element) => {
      element.hidden = false;
    });
  document.querySelectorAll('form[data-passkey]').forEach(wire);
}
