/** The add-on's version, shown in Ajuda › Sobre; test/core/version.test.ts keeps it equal to package.json's. */
export const VERSION = '0.1.0';
