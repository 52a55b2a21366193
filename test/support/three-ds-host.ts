import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readMessage } from '../../src/connectors/emv3ds/codec.js';
import type { MessageVersion } from '../../src/connectors/emv3ds/fields.js';
import type { RReqMessage } from '../../src/connectors/emv3ds/types.js';
import { browserAReq } from './emv3ds.js';

/**
 * Helpers for tests of the 3DS test platform (emulators/three-ds-host): posting messages and
 * forms to it, and a tiny stand-in for the 3DS Server that receives the RReq and answers an RRes.
 */

export const NOTIFICATION_URL = 'https://merchant.example/3ds/notification';

export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
}

export async function post(url: string, body: string, contentType = 'application/json; charset=utf-8'): Promise<Answer> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

export function postForm(url: string, fields: Readonly<Record<string, string>>): Promise<Answer> {
  return post(url, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
}

/** A browser AReq for a card, with a fresh threeDSServerTransID and the stand-in's results URL. */
export function areqFor(pan: string, resultsUrl: string, version: MessageVersion = '2.2.0', overrides: Readonly<Record<string, unknown>> = {}) {
  return browserAReq(version, { acctNumber: pan, threeDSServerTransID: randomUUID(), threeDSServerURL: resultsUrl, notificationURL: NOTIFICATION_URL, ...overrides });
}

/** base64url of a message's JSON: how a browser carries the CReq (creq) and the CRes (cres). */
export function base64url(message: object): string {
  return Buffer.from(JSON.stringify(message), 'utf8').toString('base64url');
}

/** The value of a hidden or text input of a page, by name (unescaped enough for base64url and UUIDs). */
export function inputValue(html: string, name: string): string | undefined {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
}

export interface ServerStandIn {
  readonly url: string;
  /** Every RReq received, as parsed. */
  readonly received: RReqMessage[];
  /** Its notificationURL (the browser's CRes form post lands there). */
  readonly notificationUrl: string;
  /** Every form the browser posted to notificationURL. */
  readonly notifications: URLSearchParams[];
  close(): Promise<void>;
}

/**
 * The 3DS Server's threeDSServerURL (/3ds/results): takes an RReq and answers an RRes (a refused
 * one gets a 400); and the 3DS Requestor's notificationURL (/3ds/notification), which records the form.
 */
export async function startServerStandIn(): Promise<ServerStandIn> {
  const received: RReqMessage[] = [];
  const notifications: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/3ds/notification') {
        notifications.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><title>Received</title><link rel="icon" href="data:,"><h1>Result received</h1></html>');
      }
      // Anything else a browser asks for (its favicon) is not found, not a refused RReq.
      if (request.method !== 'POST') return void response.writeHead(404).end();
      const read = readMessage(Buffer.concat(chunks).toString('utf8'), 'RReq');
      if (!read.ok) return void response.writeHead(400).end();
      const rreq = read.message;
      received.push(rreq);
      const rres = { messageType: 'RRes', messageVersion: rreq.messageVersion, threeDSServerTransID: rreq.threeDSServerTransID, acsTransID: rreq.acsTransID, dsTransID: rreq.dsTransID, resultsStatus: '01' };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rres));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/3ds/results`,
    received,
    notificationUrl: `${base}/3ds/notification`,
    notifications,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
