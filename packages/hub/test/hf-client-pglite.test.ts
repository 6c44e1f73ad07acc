import { openDatabase } from "../src/db/open.js";
import { defineHfClientSuite } from "./support/hf-client-suite.js";

// The real huggingface_hub client against the hub on the embedded database.
defineHfClientSuite("PGlite (embedded)", () =>
	openDatabase({ databaseUrl: undefined, dataDir: "memory://" }),
);
