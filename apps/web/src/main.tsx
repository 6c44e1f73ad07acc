import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { hubTokenFor } from "./account/session";
import { modelIdFromPath, prefetchModel } from "./api/models";
import { App } from "./App";
import { getSettings } from "./settings/store";
import "./styles.css";

// On a model page, ask the hub for the model while the page's code is still downloading.
const modelId = modelIdFromPath(window.location.pathname);
if (modelId) {
	const { hubUrl } = getSettings();
	const token = hubTokenFor(hubUrl);
	prefetchModel(modelId, token ? { baseUrl: hubUrl, token } : { baseUrl: hubUrl });
}

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element.");

createRoot(root).render(
	<StrictMode>
		<BrowserRouter>
			<App />
		</BrowserRouter>
	</StrictMode>,
);
