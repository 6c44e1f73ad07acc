import { useEffect, useRef } from "react";
import { NavLink, Outlet, useLocation } from "react-router";
import { useHubSession } from "../account/session";
import { useSettings } from "../settings/store";
import type { AppSection } from "../app-sections";
import { HeaderSearch } from "./HeaderSearch";

/** The sections the header links to (one of the app's sections, src/app-sections.ts). */
const NAV: ReadonlyArray<{ section: AppSection; label: string }> = [
	{ section: "tasks", label: "Tasks" },
	{ section: "models", label: "Models" },
	{ section: "libraries", label: "Libraries" },
	{ section: "settings", label: "Settings" },
];

export function Layout() {
	const location = useLocation();
	const session = useHubSession(useSettings().hubUrl);
	const mainRef = useRef<HTMLElement>(null);
	const firstRender = useRef(true);

	// After a client-side navigation, move focus to the new page's content (as a page load would) and
	// scroll to the top; the first render keeps the browser's own behaviour.
	useEffect(() => {
		if (firstRender.current) {
			firstRender.current = false;
			return;
		}
		window.scrollTo(0, 0);
		mainRef.current?.focus({ preventScroll: true });
	}, [location.pathname]);

	return (
		<>
			<a className="skip-link" href="#main">
				Skip to content
			</a>
			<header className="site-header">
				<div className="container header-inner">
					<NavLink to="/" className="brand" aria-label="ModelHub home">
						<svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32" className="brand-mark">
							<rect width="32" height="32" rx="7" />
							<path d="M8 23V9h3l5 7 5-7h3v14h-3v-9l-5 7-5-7v9z" />
						</svg>
						<span>ModelHub</span>
					</NavLink>
					<HeaderSearch />
					<nav aria-label="Main">
						<ul className="nav-list">
							{NAV.map((item) => (
								<li key={item.section}>
									<NavLink to={`/${item.section}`} className="nav-link">
										{item.label}
									</NavLink>
								</li>
							))}
							<li>
								{session ? (
									<NavLink to="/account" className="nav-link nav-account">
										<span className="nav-avatar" aria-hidden="true">
											{session.account.name.slice(0, 1).toUpperCase()}
										</span>
										<span className="visually-hidden">Your account: </span>
										<span className="nav-account-name">{session.account.name}</span>
									</NavLink>
								) : (
									<NavLink to="/login" className="nav-link">
										Sign in
									</NavLink>
								)}
							</li>
						</ul>
					</nav>
				</div>
			</header>
			<main id="main" ref={mainRef} tabIndex={-1} className="container main">
				<Outlet />
			</main>
			<footer className="site-footer">
				<div className="container">
					ModelHub — an open, self-hostable model hub. Catalogue data from <code>@modelhub/tasks</code>.
				</div>
			</footer>
		</>
	);
}
