export function keepLoopbackConnectionsOpen(): void;
