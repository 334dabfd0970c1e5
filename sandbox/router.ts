import type { RouteDefinition, SandboxBase } from './types';

interface CompiledRoute {
	route: RouteDefinition;
	regex: RegExp;
	keys: string[];
}

export type RouteMatch =
	| { kind: 'found'; route: RouteDefinition; params: Record<string, string> }
	/** The path exists under other methods. */
	| { kind: 'method'; allowed: string[] }
	| { kind: 'none' };

function escapeRegex(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/v1/Accounts/:sid/Calls/:callSid.json` → a regex with one lazy capture per parameter. */
export function compilePattern(pattern: string): { regex: RegExp; keys: string[] } {
	const keys: string[] = [];
	let source = '';
	let last = 0;
	const paramRe = /:([A-Za-z_][A-Za-z0-9_]*)/g;
	for (let m = paramRe.exec(pattern); m; m = paramRe.exec(pattern)) {
		source += escapeRegex(pattern.slice(last, m.index)) + '([^/]+?)';
		keys.push(m[1]);
		last = m.index + m[0].length;
	}
	source += escapeRegex(pattern.slice(last));
	// A trailing slash is tolerated; double slashes and other shapes are not.
	return { regex: new RegExp(`^${source.replace(/\/$/, '')}/?$`), keys };
}

/** Method + path pattern per base → route. First added wins. */
export class Router {
	private readonly routes = new Map<SandboxBase, CompiledRoute[]>();

	add(route: RouteDefinition): void {
		const list = this.routes.get(route.base) ?? [];
		list.push({ route: { ...route, method: route.method.toUpperCase() }, ...compilePattern(route.path) });
		this.routes.set(route.base, list);
	}

	addAll(routes: readonly RouteDefinition[]): void {
		for (const route of routes) this.add(route);
	}

	/** `live`: the sandbox's mode; a route marked for the other mode is skipped (RouteDefinition.live). */
	match(base: SandboxBase, method: string, path: string, live = false): RouteMatch {
		const allowed: string[] = [];
		for (const compiled of this.routes.get(base) ?? []) {
			if (compiled.route.live !== undefined && compiled.route.live !== live) continue;
			const m = compiled.regex.exec(path);
			if (!m) continue;
			if (compiled.route.method !== method.toUpperCase()) {
				if (!allowed.includes(compiled.route.method)) allowed.push(compiled.route.method);
				continue;
			}
			const params: Record<string, string> = {};
			compiled.keys.forEach((key, i) => {
				const raw = m[i + 1];
				try {
					params[key] = decodeURIComponent(raw);
				} catch {
					params[key] = raw;
				}
			});
			return { kind: 'found', route: compiled.route, params };
		}
		return allowed.length ? { kind: 'method', allowed } : { kind: 'none' };
	}
}
