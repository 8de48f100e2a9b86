/**
 * The address of the socket each request came on, told by the node:http listener (which alone
 * sees the socket) to the sign-in front (which counts its limits per caller, caller.ts). Kept
 * beside the request, and gone with it.
 */

const socketAddresses = new WeakMap<Request, string>();

/**
 * Records the address of the socket `request` came on (the bin's listener does, for each request).
 *
 * @example
 * ```ts
 * rememberSocketAddress(request, req.socket.remoteAddress);
 * ```
 */
export function rememberSocketAddress(request: Request, address: string | undefined): void {
  if (address !== undefined) socketAddresses.set(request, address);
}

/** The address of the socket `request` came on, when the listener told it. */
export function socketAddressOf(request: Request): string | undefined {
  return socketAddresses.get(request);
}
