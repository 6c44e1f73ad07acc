import { openDatabase } from "../src/db/open.js";
import { defineHubSuite } from "./support/hub-suite.js";

// The embedded database, in memory: the same suite as PostgreSQL runs.
defineHubSuite("PGlite (embedded)", () => openDatabase({ databaseUrl: undefined, dataDir: "memory://" }));
