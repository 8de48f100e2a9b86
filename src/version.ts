/** The version of this package; `npm run version` keeps it equal to package.json's. */
export const VERSION = '1.2.0';
