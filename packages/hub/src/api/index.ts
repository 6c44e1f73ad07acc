/**
 * The hub's HTTP API contract: the shapes of its answers and of what it reads from requests, declared
 * once. The hub's routes and renderers are checked against these types; the web app imports them
 * (`import type … from "@modelhub/hub/api"`). Types only: nothing here exists at run time.
 */
export type * from "./accounts.js";
export type * from "./admin.js";
export type * from "./catalogue.js";
export type * from "./datasets.js";
export type * from "./errors.js";
export type * from "./models.js";
export type * from "./repos.js";
export type * from "./sessions.js";
export type * from "./uploads.js";
export type * from "./people.js";
export type * from "./viewer.js";
export type * from "./community.js";
export type * from "./discussions.js";
export type * from "./webhooks.js";
