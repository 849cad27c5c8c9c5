// A TCP forwarder whose link can be cut and restored, to simulate a server going away and
// coming back without touching the shared server itself; optionally it cuts the first connections
// just as their answer starts to come back (the request was done, its answer is lost).
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops listening and drops every open connection. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
  /** Connections cut as their answer began (see dropAnswers). */
  dropped(): number;
}

export async function startTcpProxy(targetHost: string, targetPort: number, opts: { dropAnswers?: number } = {}): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let seen = 0;
  let dropped = 0;
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        sockets.add(client);
        sockets.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream);
        if (seen++ < (opts.dropAnswers ?? 0)) {
          upstream.once('data', () => {
            dropped++;
            drop();
          });
        } else upstream.pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const cut = async () => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    cut,
    restore: listen,
    close: cut,
    dropped: () => dropped,
  };
}
