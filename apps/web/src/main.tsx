import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { forget, getHubSession, hasSessionCookie, hubTokenFor, signIn } from "./account/session";
import { modelIdFromPath, prefetchModel } from "./api/models";
import { App } from "./App";
import { getSettings } from "./settings/store";
import "./styles.css";

// On a model page, ask the hub for the model while the page's code is still downloading. Not at a
// one-segment address: that is a user's or organisation's profile first (pages/Name.tsx), and asking
// for a model there would cost each profile a 404.
const modelId = modelIdFromPath(window.location.pathname);
if (modelId?.includes("/")) {
	const { hubUrl } = getSettings();
	const token = hubTokenFor(hubUrl);
	prefetchModel(modelId, token ? { baseUrl: hubUrl, token } : { baseUrl: hubUrl });
}

// A reload or a new tab stays signed in: the hub's session cookie is checked once at start.
// Loaded only then: the pages of people never signed in do not carry it.
if (hasSessionCookie()) {
	void import("./account/restore").then(({ restoreCookieSession }) =>
		restoreCookieSession(getSettings().hubUrl, { getHubSession, signIn, forget }),
	);
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
