// Imports the client and never calls it: with `sideEffects: false` nothing of the package or its
// dependencies may reach the bundle.
// biome-ignore lint/correctness/noUnusedImports: an unused import is what this app is about
import { Client } from 'agentchat';

document.body.textContent = 'no client here';
