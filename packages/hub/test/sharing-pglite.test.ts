import { openDatabase } from "../src/db/open.js";
import { defineSharingSuite } from "./support/sharing-suite.js";

// Accounts, private models and uploads through the real huggingface_hub, on the embedded database.
defineSharingSuite("PGlite (embedded)", () => openDatabase({ databaseUrl: undefined, dataDir: "memory://" }));
