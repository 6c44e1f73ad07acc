/** Our package name, sent in the User-Agent. */
export const PACKAGE_NAME = "@modelhub/inference";
/** Kept equal to package.json "version" (checked by test/version.test.ts). */
export const PACKAGE_VERSION = "0.1.0";
/** The version of `@huggingface/inference` whose public API this package reproduces. */
export const COMPATIBLE_API_VERSION = "3.12.1";
