import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { attachPort } from './ws-attach-port.ts';

/**
 * `arbor-mcp --attach` against a host that answers with frames that are JSON but not frames (issue 21:
 * a malformed frame from the host fails the call under way; it does not end arbor-mcp). The "host" here is
 * a bare WebSocket server that sends the frame under test, then a good answer to the next call.
 */
let wss: WebSocketServer;
let port: number;
let reply: (id: number) => string = () => '';

beforeAll(async () => {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  port = (wss.address() as AddressInfo).port;
  wss.on('connection', (sock) => sock.on('message', (data) => {
    const { id } = JSON.parse(String(data)) as { id: number };
    sock.send(reply(id));
  }));
});

afterAll(() => new Promise<void>((resolve) => wss.close(() => resolve())));

describe('attach port and a misbehaving host', () => {
  it.each(['null', '5', '"text"', '[]', '{"event": null}', '{"event": 7}', '{"event": {}}', '{"id": "1", "result": 1}'])('skips the frame %s and keeps working', async (bad) => {
    const port_ = await attachPort(`http://127.0.0.1:${port}/?token=secret`);
    const events: unknown[] = [];
    port_.onEvent((e) => events.push(e));
    let first = true;
    reply = (id) => {
      if (first) {
        first = false;
        return bad;
      }
      return JSON.stringify({ id, result: [{ CHANNEL: 0, RESPONSE: null, ERR: '' }] });
    };
    // The bad frame answers nothing: the first call stays pending; the next is answered normally.
    const pending = port_.submit('0 STATE');
    await expect(port_.submit('0 STATE')).resolves.toEqual([{ CHANNEL: 0, RESPONSE: null, ERR: '' }]);
    expect(events).toEqual([]);
    await port_.close();
    await expect(pending).rejects.toThrow(/closed the connection/);
  });
});
