import { request } from 'node:http';

/** What a server answered one request. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request sent as written: the path is not normalised (`..`, `%2e%2e` reach the server
 * as they are) and the `Host` header is whatever is given (fetch would do neither).
 */
export function rawRequest(port: number, path: string, { host = `127.0.0.1:${port}`, method = 'GET', headers = {}, address = '127.0.0.1' }: { host?: string | undefined; method?: string; headers?: Record<string, string>; address?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: address, port, path, method, headers: { ...headers, host }, setHost: false, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('latin1') }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}
