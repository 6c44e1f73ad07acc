import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from "react";
import { Route, Routes } from "react-router";
import { APP_SECTIONS, type AppSection } from "./app-sections";
import { Layout } from "./components/Layout";
import { Loading } from "./components/Status";
// Every page is its own chunk, the home page too: the entry carries React, the router and the shell,
// and no page carries another's code (with Home in the entry, the library page's first load was
// 121.0 KB gzip, over the 120 KB budget). index.html preloads nothing more; the home chunk is small.
const Home = lazy(() => import("./pages/Home"));
const TasksPage = lazy(() => import("./pages/Tasks"));
const TaskPage = lazy(() => import("./pages/Task"));
const LibrariesPage = lazy(() => import("./pages/Libraries"));
const LibraryPage = lazy(() => import("./pages/Library"));
const ModelsPage = lazy(() => import("./pages/Models"));
const ModelPage = lazy(() => import("./pages/Model"));
const DatasetsPage = lazy(() => import("./pages/Datasets"));
const DatasetPage = lazy(() => import("./pages/Dataset"));
const SettingsPage = lazy(() => import("./pages/Settings"));
const AccountPage = lazy(() => import("./pages/Account"));
const NewModelPage = lazy(() => import("./pages/NewRepo"));
const NewDatasetPage = lazy(() =>
	import("./pages/NewRepo").then((module) => ({ default: module.NewDatasetPage })),
);
const NotFound = lazy(() => import("./pages/NotFound"));
const LoginPage = lazy(() => import("./pages/Login"));
const JoinPage = lazy(() => import("./pages/Join"));
const LogoutPage = lazy(() => import("./pages/Logout"));
const TokensPage = lazy(() => import("./pages/Tokens"));
const SiteAdminPage = lazy(() => import("./pages/SiteAdmin"));
const WebhooksPage = lazy(() => import("./pages/Webhooks"));
const NamePage = lazy(() => import("./pages/Name"));
const OrgSettingsPage = lazy(() => import("./pages/OrgSettings"));

/**
 * The page of each app section (`/tasks`, `/models`…): typed by the one list of sections
 * (src/app-sections.ts, which the hub reads for its page statuses), so a section without a page, or a
 * page for no section, does not compile.
 */
const SECTION_PAGES: Record<AppSection, LazyExoticComponent<ComponentType>> = {
	tasks: TasksPage,
	libraries: LibrariesPage,
	models: ModelsPage,
	datasets: DatasetsPage,
	settings: SettingsPage,
	account: AccountPage,
	new: NewModelPage,
	"new-dataset": NewDatasetPage,
	login: LoginPage,
	join: JoinPage,
	logout: LogoutPage,
};

export function App() {
	return (
		<Routes>
			<Route element={<Layout />}>
				<Route index element={<Page element={<Home />} />} />
				{APP_SECTIONS.map((section) => {
					const SectionPage = SECTION_PAGES[section];
					return <Route key={section} path={section} element={<Page element={<SectionPage />} />} />;
				})}
				<Route path="tasks/:id" element={<Page element={<TaskPage />} />} />
				<Route path="libraries/:key" element={<Page element={<LibraryPage />} />} />
				{/* A dataset and its browsing views (/datasets/{id}/tree/…): src/view/browse.ts reads the rest. */}
				<Route path="datasets/*" element={<Page element={<DatasetPage />} />} />
				<Route path="settings/tokens" element={<Page element={<TokensPage />} />} />
				<Route path="settings/admin" element={<Page element={<SiteAdminPage />} />} />
				<Route path="settings/webhooks" element={<Page element={<WebhooksPage />} />} />
				<Route path=":namespace/:name" element={<Page element={<ModelPage />} />} />
				<Route path="organizations/:org/settings" element={<Page element={<OrgSettingsPage />} />} />
				{/* A user's or organisation's profile, else a model without a namespace (pages/Name.tsx). */}
				<Route path=":name" element={<Page element={<NamePage />} />} />
				{/* A model's browsing views (/tree, /blob, /commits, /commit): src/view/browse.ts reads the rest. */}
				<Route path=":namespace/:name/*" element={<Page element={<ModelPage />} />} />
				<Route path=":name/*" element={<Page element={<ModelPage />} />} />
				<Route path="*" element={<Page element={<NotFound />} />} />
			</Route>
		</Routes>
	);
}

function Page({ element }: { element: ReactNode }) {
	return <Suspense fallback={<Loading label="Loading page" />}>{element}</Suspense>;
}
