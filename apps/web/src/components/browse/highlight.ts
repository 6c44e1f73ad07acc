/**
 * Syntax highlighting for file views: highlight.js's core with only the languages model repositories
 * hold (Python, JavaScript/TypeScript, JSON, YAML, TOML/INI, shell, Markdown, XML/HTML, CSS). Part of
 * the blob view's chunk, never of a page's first load. Its HTML escapes the text and carries classes
 * only (no inline styles, which the hub's CSP forbids).
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import ini from "highlight.js/lib/languages/ini";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = { bash, css, ini, javascript, json, markdown, python, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** The text as highlighted HTML (escaped text in class-only spans). */
export function highlightHtml(text: string, language: string): string {
	return hljs.highlight(text, { language, ignoreIllegals: true }).value;
}
