// The bundlers' page, taking the package with `import`.
import { Client, NotFoundError } from 'agentchat';
import { runPage } from './bundler-page.mjs';

runPage({ Client, NotFoundError });
