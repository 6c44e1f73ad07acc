import { Link } from "react-router";
import { useDocumentTitle } from "../hooks/useDocumentTitle";

export default function NotFound({
	title = "Page not found",
	message,
}: {
	title?: string;
	message?: string;
}) {
	useDocumentTitle(title);
	return (
		<section className="not-found" aria-labelledby="not-found-title">
			<p className="not-found-code" aria-hidden="true">
				404
			</p>
			<h1 id="not-found-title">{title}</h1>
			<p className="lead">
				{message ?? "There is nothing at this address. It may have moved, or the link may be wrong."}
			</p>
			<p>
				<Link to="/" className="btn">
					Go to the home page
				</Link>{" "}
				<Link to="/models" className="btn btn-secondary">
					Search models
				</Link>
			</p>
		</section>
	);
}
