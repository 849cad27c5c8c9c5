// A loopback TCP forwarder that lets the first N connections reach the server but cuts each
// just as the answer starts to come back: the request was done, its answer is lost.
import net from 'node:net';

export interface DropProxy {
  url: string;
  /** Connections cut so far. */
  dropped(): number;
  close(): Promise<void>;
}

export async function startDropProxy(targetPort: number, dropFirst = 1): Promise<DropProxy> {
  let seen = 0;
  let dropped = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const drop = seen++ < dropFirst;
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    if (drop) {
      upstream.once('data', () => {
        dropped++;
        end();
      });
    } else upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    dropped: () => dropped,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
