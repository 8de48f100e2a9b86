// The bundlers' page, taking the package with `require`, as CommonJS codebases do.
const { Client, NotFoundError } = require('agentchat');
const { runPage } = require('./bundler-page.mjs');

runPage({ Client, NotFoundError });
