import type { ApiResponse, TestApp } from './app.js';

/** The operator password the console tests set. */
export const CONSOLE_PASSWORD = 'correct horse battery staple';

/** A browser of the console: keeps cookies, reads the CSRF token of the last page. */
export function consoleClient(app: TestApp, ip = '10.90.0.7') {
  const jar = new Map<string, string>();
  let csrf = '';
  const remember = (res: ApiResponse) => {
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [String(set)] : []) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = decodeURIComponent(pair!.slice(eq + 1));
      if (value === '') jar.delete(name);
      else jar.set(name, value);
    }
    const token = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1];
    if (token) csrf = token;
    return res;
  };
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  return {
    jar,
    get csrf() {
      return csrf;
    },
    async get(url: string, headers: Record<string, string> = {}) {
      return remember(await app.api('GET', url, { ip, headers: { cookie: cookieHeader(), ...headers } }));
    },
    async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
      const body = new URLSearchParams(form).toString();
      return remember(await app.api('POST', url, { ip, rawBody: body, headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', host: 'localhost:3000', ...headers } }));
    },
    async signIn(password = CONSOLE_PASSWORD) {
      await this.get('/console');
      const res = await this.post('/console/login', { csrf, password });
      if (res.status === 303) await this.get('/console'); // the session's CSRF token is in its pages
      return res;
    },
  };
}
