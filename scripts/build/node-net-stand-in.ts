/**
 * What `node:net` is in the builds of agentchat/testing and the agentchat-mock bin: see
 * unused-node-net.ts. An import of anything but `isIP` fails the build.
 */
export function isIP(): never {
  throw new Error('node:net is left out of this build: createRequestListener is not used');
}
