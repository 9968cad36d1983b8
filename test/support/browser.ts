import { request, type HttpResponse, type RequestOptions } from './http.js';

/**
 * A minimal browser: keeps cookies, reads the CSRF token from rendered forms and posts forms. Enough to test form
 * flows over real HTTP without a real browser.
 */
export class FormBrowser {
  private readonly cookies = new Map<string, string>();
  csrfToken = '';

  constructor(private readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async get(path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const response = await request('GET', this.baseUrl + path, undefined, {
      ...options,
      headers: { accept: 'text/html', cookie: this.cookieHeader(), ...options.headers },
    });
    this.remember(response);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(response.text);
    if (csrf?.[1]) this.csrfToken = csrf[1];
    return response;
  }

  /** Posts a form with the CSRF token from the last page (unless `_csrf` is given). */
  async submit(
    path: string,
    fields: Record<string, string>,
    options: RequestOptions = {},
  ): Promise<HttpResponse> {
    const response = await request(
      'POST',
      this.baseUrl + path,
      { _csrf: this.csrfToken, ...fields },
      {
        ...options,
        form: true,
        headers: { accept: 'text/html', cookie: this.cookieHeader(), ...options.headers },
      },
    );
    this.remember(response);
    return response;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(response: HttpResponse): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (/Max-Age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
