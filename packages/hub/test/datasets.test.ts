import { openDatabase } from "../src/db/open.js";
import { HUB_GENERATIONS } from "../../../test-support/python-env.js";
import { defineDatasetSuite } from "./support/datasets-suite.js";

// Datasets through huggingface_hub 2.0 and 1.33 and the datasets library, on the embedded database.
defineDatasetSuite(
	"PGlite (embedded)",
	() => openDatabase({ databaseUrl: undefined, dataDir: "memory://" }),
	{
		generations: HUB_GENERATIONS,
		datasetsLibrary: true,
	},
);
