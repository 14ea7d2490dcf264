// deploy/monitoring names only what the service exports: every metric name
// in the Grafana dashboard's queries and in the Prometheus rules is a family
// of a live scrape of GET /metrics (a histogram's _bucket, _sum and _count
// under its family), a recording rule of rules.yaml, or Prometheus's own
// `up`. Every alert links to a runbook section of docs/OPERATING.md. The
// rules themselves are checked by promtool (make test-monitoring).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { startServer, request, ROOT } from './helper.mjs';

const MON = path.join(ROOT, 'deploy/monitoring');
const rules = YAML.parse(fs.readFileSync(path.join(MON, 'rules.yaml'), 'utf8'));
const alerts = YAML.parse(fs.readFileSync(path.join(MON, 'alerts.yaml'), 'utf8'));
const dashboard = JSON.parse(fs.readFileSync(path.join(MON, 'dashboard.json'), 'utf8'));
const OPERATING = fs.readFileSync(path.join(ROOT, 'docs/OPERATING.md'), 'utf8');

const recorded = new Set(rules.groups.flatMap((g) => g.rules.map((r) => r.record)));
const alertRules = alerts.groups.flatMap((g) => g.rules);

// PromQL's words that are not series names.
const WORDS = new Set(['sum', 'by', 'rate', 'histogram_quantile', 'label_values', 'without', 'on',
	'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'avg', 'max', 'min', 'count',
	'round', 'absent', 'increase', 'avg_over_time', 'bool', 'offset']);
// The series names of a PromQL expression: identifiers outside braces,
// strings and [ranges] that are not functions, keywords or label names.
function seriesNames(expr) {
	const bare = expr.replace(/label_values\(([^,)]*),\s*\w+\)/g, '$1').replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\{[^}]*\}/g, '{}')
		.replace(/\[[^\]]*\]/g, '[]').replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '');
	return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0])
		.filter((w) => !WORDS.has(w) && !/^\$/.test(w) && !/^(e|Inf|NaN)$/.test(w))
		.filter((w, i, all) => all.indexOf(w) === i);
}

function dashboardQueries() {
	const out = [];
	for (const p of dashboard.panels) for (const t of p.targets ?? []) out.push([p.title, t.expr]);
	for (const v of dashboard.templating.list) if (v.type === 'query') out.push([`$${v.name}`, v.query]);
	return out;
}

const server = await startServer({ args: ['--metrics-open', '1'] });
// Traffic first, so that the scrape has series with labels as well.
await request(server, { path: '/livez' });
await request(server, { method: 'POST', path: '/v1/puyo', headers: { 'Content-Type': 'application/json' },
	body: JSON.stringify({ field: ['RRRR..'] }) });
const scrape = (await request(server, { path: '/metrics' })).body;
const families = new Set([...scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]));
const histograms = new Set([...scrape.matchAll(/^# TYPE (\S+) histogram$/gm)].map((m) => m[1]));

function exported(name) {
	if (families.has(name)) return true;
	const base = name.replace(/_(bucket|sum|count)$/, '');
	return base !== name && histograms.has(base);
}

test('the scrape has the families the monitoring files are built on', () => {
	for (const f of ['dropjudge_http_requests_total', 'dropjudge_http_request_duration_seconds',
		'dropjudge_access_log_dropped_total', 'dropjudge_build_info'])
		assert.ok(families.has(f), f);
});

test('every query of the Grafana dashboard names series the service exports', () => {
	const queries = dashboardQueries();
	assert.ok(queries.length >= 12, `${queries.length} queries`);
	const used = new Set();
	for (const [where, expr] of queries) {
		const names = seriesNames(expr);
		assert.ok(names.length > 0, `${where}: no series in ${expr}`);
		for (const n of names) {
			assert.ok(exported(n), `${where}: ${n} is not exported (${expr})`);
			used.add(n.replace(/_(bucket|sum|count)$/, ''));
		}
	}
	// The panels the dashboard is for: requests, latency, cases, verdicts, queue.
	for (const f of ['dropjudge_http_requests_total', 'dropjudge_http_request_duration_seconds',
		'dropjudge_cases_total', 'dropjudge_judge_verdicts_total', 'dropjudge_http_requests_in_flight'])
		assert.ok(used.has(f), `dashboard does not show ${f}`);
});

test('every recording and alerting rule names exported series, its own records or up', () => {
	const all = [...rules.groups.flatMap((g) => g.rules), ...alertRules];
	for (const r of all) {
		for (const n of seriesNames(r.expr)) {
			assert.ok(exported(n) || recorded.has(n) || n === 'up', `${r.record ?? r.alert}: ${n} is neither exported nor recorded`);
		}
	}
});

test('every alert has a runbook section in docs/OPERATING.md', () => {
	const names = alertRules.map((r) => r.alert).sort();
	assert.deepEqual(names, ['DropjudgeAccessLogDropping', 'DropjudgeAvailabilityLow', 'DropjudgeErrorRatioHigh',
		'DropjudgeHeavyQueueFull', 'DropjudgeLatencyP99High', 'DropjudgeScrapeDown']);
	for (const r of alertRules) {
		assert.ok(OPERATING.includes(`\n### Runbook: ${r.alert}\n`), `no runbook for ${r.alert}`);
		assert.ok(r.annotations.runbook_url.endsWith(`#runbook-${r.alert.toLowerCase()}`), r.alert);
	}
});
