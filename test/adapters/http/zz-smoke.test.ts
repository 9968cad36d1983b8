import { startTestServer } from '../../support/test-server.js';
import { client, registerUser } from '../../support/http.js';
describe('smoke', () => {
  it('works', async () => {
    const s = await startTestServer({ store: 'sqlite' });
    const c = client(s.url);
    let t = Date.now();
    const tok = await registerUser(s.url, 'alice');
    console.log('register ms', Date.now() - t);
    t = Date.now();
    for (let i = 0; i < 5; i++) await registerUser(s.url, 'bob' + i);
    console.log('5 register ms', Date.now() - t);
    let r = await c.get('/auth/me', { token: tok });
    console.log(r.status, r.headers, r.text);
    r = await c.post('/auth/verify', { token: tok });
    console.log(r.status, r.text);
    r = await c.send('PUT', '/auth/verify', {});
    console.log(r.status, r.text, [...r.headers]);
    r = await c.get('/auth/login');
    console.log(r.status, r.text);
    r = await c.get('/nope', {headers: {accept: 'text/html'}});
    console.log(r.status, r.text.slice(0, 300), [...r.headers]);
    await s.close();
  });
});
