import type { IncomingHttpHeaders, Server } from "node:http";
export function isRestartAnswer(answer: { status: number; headers: IncomingHttpHeaders; body: Buffer }): boolean;
export function startRetryProxy(port: number, target: number, log?: (message: string) => void): Server;
