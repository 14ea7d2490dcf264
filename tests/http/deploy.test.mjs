// The deployment files (deploy/): every Kubernetes manifest validates
// against the Kubernetes schemas (kubernetes-models), and the files agree
// with each other and with dropjudge itself: the probes hit the health
// routes, the pods run non-root on a read-only root without
// capabilities, the grace period covers preStop plus the drain, every
// environment variable is one that `dropjudge --help` documents, and
// nginx's body limit is --max-body. The containers themselves run in
// make test-container (compose and podman kube play).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import YAML from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Service } from 'kubernetes-models/v1/Service';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ROOT, BIN } from './helper.mjs';

const K8S = path.join(ROOT, 'deploy/k8s');
const MODELS = {
	'apps/v1 Deployment': Deployment,
	'v1 Service': Service,
	'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
	'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
};
const load = (file) => YAML.parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS());
const manifests = fs.readdirSync(K8S).filter((f) => f.endsWith('.yaml')).sort()
	.flatMap((f) => load(path.join(K8S, f)).map((m) => ({ file: f, m })));
const byKind = (kind) => manifests.find(({ m }) => m.kind === kind)?.m;
const HELP = execFileSync(BIN, ['--help'], { encoding: 'utf8' });

test('every manifest in deploy/k8s validates against the Kubernetes schema of its kind', () => {
	assert.deepEqual(manifests.map(({ m }) => m.kind).sort(),
		['Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Service']);
	for (const { file, m } of manifests) {
		const Model = MODELS[`${m.apiVersion} ${m.kind}`];
		assert.ok(Model, `${file}: no schema for ${m.apiVersion} ${m.kind}`);
		assert.doesNotThrow(() => new Model(m).validate(), `${file} is not a valid ${m.kind}`);
	}
});

test('the schema validation rejects a broken Deployment', () => {
	const broken = structuredClone(byKind('Deployment'));
	broken.spec.replicas = 'three';
	assert.throws(() => new Deployment(broken).validate(), /replicas/);
	const noImage = structuredClone(byKind('Deployment'));
	delete noImage.spec.template.spec.containers[0].name;
	assert.throws(() => new Deployment(noImage).validate(), /name/);
});

test('the Deployment probes the health routes and locks the container down', () => {
	const d = byKind('Deployment');
	const pod = d.spec.template.spec;
	const c = pod.containers[0];
	assert.equal(c.startupProbe.httpGet.path, '/livez');
	assert.equal(c.readinessProbe.httpGet.path, '/readyz');
	// `dropjudge healthcheck` is GET /livez on the PORT of the environment.
	assert.deepEqual(c.livenessProbe.exec.command, ['dropjudge', 'healthcheck']);
	// (and on HOST's address, a server's 0.0.0.0 asked on 127.0.0.1)
	assert.match(HELP, /\nhealthcheck \[--host ADDR\] \[--port N\][^\n]*\n\s+Sends GET \/livez to ADDR:N \(ADDR from --host, else HOST, else 127\.0\.0\.1;[\s\S]*?N from --port, else PORT/);
	const env = Object.fromEntries(c.env.map((e) => [e.name, e.value]));
	assert.equal(Number(env.PORT), c.ports[0].containerPort);
	assert.equal(c.readinessProbe.httpGet.port, c.ports[0].containerPort);
	assert.equal(c.startupProbe.httpGet.port, c.ports[0].containerPort);
	for (const name of Object.keys(env)) assert.match(HELP, new RegExp(`, ${name}=`), `${name} is not a dropjudge variable`);
	assert.equal(c.securityContext.readOnlyRootFilesystem, true);
	assert.equal(c.securityContext.allowPrivilegeEscalation, false);
	assert.deepEqual(c.securityContext.capabilities.drop, ['ALL']);
	assert.equal(pod.securityContext.runAsNonRoot, true);
	assert.ok(pod.securityContext.runAsUser > 0);
	assert.ok(c.resources.requests.cpu && c.resources.requests.memory && c.resources.limits.memory);
	// Stopping: preStop, then SIGTERM and the drain, all inside the grace.
	const preStop = Number(c.lifecycle.preStop.exec.command.at(-1));
	assert.ok(pod.terminationGracePeriodSeconds >= preStop + Number(env.DRAIN_TIMEOUT) + 1,
		`grace ${pod.terminationGracePeriodSeconds} s < preStop ${preStop} s + drain ${env.DRAIN_TIMEOUT} s + 1`);
});

test('the Service, autoscaler and disruption budget select the Deployment', () => {
	const d = byKind('Deployment');
	const labels = d.spec.template.metadata.labels;
	const matches = (sel) => Object.entries(sel).every(([k, v]) => labels[k] === v);
	assert.ok(matches(d.spec.selector.matchLabels));
	assert.ok(matches(byKind('Service').spec.selector));
	assert.equal(byKind('Service').spec.ports[0].targetPort, d.spec.template.spec.containers[0].ports[0].name);
	assert.ok(matches(byKind('PodDisruptionBudget').spec.selector.matchLabels));
	const hpa = byKind('HorizontalPodAutoscaler');
	assert.deepEqual([hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name], ['Deployment', d.metadata.name]);
	assert.ok(hpa.spec.minReplicas >= 2 && hpa.spec.maxReplicas > hpa.spec.minReplicas);
});

test('compose runs locked-down replicas behind nginx, with the same limits and drain', () => {
	const c = YAML.parse(fs.readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8'));
	const dj = c.services.dropjudge;
	const lb = c.services.lb;
	assert.match(String(dj.deploy.replicas), /^\$\{DROPJUDGE_REPLICAS:-3\}$/);
	for (const s of [dj, lb]) {
		assert.equal(s.read_only, true);
		assert.deepEqual(s.cap_drop, ['ALL']);
		assert.ok(s.security_opt.includes('no-new-privileges'));
	}
	assert.equal(dj.healthcheck.test, 'dropjudge healthcheck');
	for (const name of Object.keys(dj.environment)) assert.match(HELP, new RegExp(`, ${name}=`));
	assert.ok(Number.parseInt(dj.stop_grace_period, 10) > Number(dj.environment.DRAIN_TIMEOUT));
	assert.deepEqual(lb.depends_on, ['dropjudge']);
	// nginx's body limit is dropjudge's.
	const nginx = fs.readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
	const m = nginx.match(/client_max_body_size (\d+)([km]?);/);
	const limit = Number(m[1]) * { '': 1, k: 1024, m: 1048576 }[m[2]];
	assert.equal(limit, Number(dj.environment.MAX_BODY));
	assert.match(HELP, /Default 1048576 \(1 MiB\)/);
	assert.match(nginx, /server dropjudge:8080 /);
	assert.match(nginx, /proxy_next_upstream error timeout http_502 http_503 non_idempotent;/);
	assert.match(nginx, /keepalive \d+;/);
	assert.match(nginx, /max_fails=1 fail_timeout=\d+s/);
});

test('the README\'s configuration table lists every flag and variable of --help, with its default', () => {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const start = readme.indexOf('\n## Configuration\n');
	assert.ok(start >= 0, 'the README has a Configuration section');
	const end = readme.indexOf('\n## ', start + 1);
	const table = readme.slice(start, end < 0 ? undefined : end);
	const flags = [...HELP.matchAll(/^  (--[a-z-]+) [^,]+, ([A-Z_]+)=/gm)];
	assert.ok(flags.length >= 15, `${flags.length} flags in --help`);
	for (const [, flag, env] of flags) {
		assert.match(table, new RegExp(`\\| [^|]*\`${flag}\`[^|]*\\| [^|]*\`${env}\`[^|]*\\| `), `${flag} / ${env} in the README table`);
	}
	for (const [, def] of HELP.matchAll(/Default (\d+)[ .]/g)) assert.ok(table.includes(`\`${def}\``), `default ${def} in the table`);
});
