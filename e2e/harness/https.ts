import https from 'node:https';

/** GET over HTTPS to a server on loopback (Caddy), naming `url`'s host and trusting only `ca`. */
export function httpsGet(url: URL, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        servername: url.hostname,
        ca,
        headers: { host: url.host },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve(body));
      },
    );
    request.on('error', reject);
  });
}
