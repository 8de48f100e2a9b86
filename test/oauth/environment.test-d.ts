import { describe, expectTypeOf, it } from 'vitest';
import {
  type ApiKeyFunction,
  type ClientCredentialsOptions,
  clientCredentials,
} from '../../src/index.js';

describe('clientCredentials() with settings from the environment', () => {
  it('takes no options, or some, the rest read from AGENTCHAT_* variables', () => {
    expectTypeOf(clientCredentials()).toEqualTypeOf<ApiKeyFunction>();
    clientCredentials({});
    clientCredentials({ scope: 'projects' });
    clientCredentials({ tokenUrl: 'https://auth.test/token', clientSecret: 's' });
    clientCredentials({ issuer: 'https://auth.test', clientAssertion: () => 'jwt' });
    // An options object typed as before still fits.
    const options: ClientCredentialsOptions = { clientId: 'i', clientSecret: 's', tokenUrl: 'u' };
    clientCredentials(options);
    // Reading clientId from that type still gives a string, as in 1.x.
    expectTypeOf<ClientCredentialsOptions['clientId']>().toEqualTypeOf<string>();

    // @ts-expect-error options, not a token URL
    clientCredentials('https://auth.test/token');
    // @ts-expect-error the environment fills in strings, but an option given is still checked
    clientCredentials({ clientId: 42 });
    // @ts-expect-error no such option: the variable's name is not the option's
    clientCredentials({ AGENTCHAT_CLIENT_ID: 'i' });
  });
});
