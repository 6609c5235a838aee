import { build } from 'esbuild';
import { bundling } from '#lib/bundling';
(async () => {
for (const e of process.argv.slice(2)) {
const r = await build({ entryPoints: [e], bundle: true, minify: true, platform: 'node', target: 'node22', format: 'cjs', mainFields: bundling.mainFields, external: bundling.externalModules, write: false, metafile: true, outfile: '/tmp/x.js', logLevel: 'error' });
const inputs = Object.values(r.metafile.outputs)[0].inputs; const by: Record<string, number> = {};
for (const [f, v] of Object.entries(inputs)) { const m = f.match(/node_modules\/((@[^/]+\/)?[^/]+)/); const k = m ? m[1] : f.split('/').slice(0,3).join('/'); by[k] = (by[k]||0) + v.bytesInOutput; }
console.log(e, (r.outputFiles[0].contents.length/1024).toFixed(1)); console.log(Object.entries(by).sort((a,b)=>b[1]-a[1]).slice(0,16).map(([k,v])=>`  ${(v/1024).toFixed(1)} KB ${k}`).join('\n'));
}})();
