import { build } from 'esbuild';
const r = await build({ entryPoints: [process.argv[2]], bundle: true, minify: true, platform: 'node', target: 'node22', format: 'cjs', mainFields: ['module','main'], write: false, metafile: true, outfile: '/tmp/x.js', logLevel: 'error' });
const inputs = Object.values(r.metafile.outputs)[0].inputs;
console.log(Object.entries(inputs).filter(([f]) => f.includes(process.argv[3])).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput).slice(0,25).map(([f,v])=>`${(v.bytesInOutput/1024).toFixed(1)} ${f.replace(/.*node_modules\//,'')}`).join('\n'));
// who imports nested-clients
for (const [f, v] of Object.entries(r.metafile.inputs)) for (const i of v.imports) if (i.path.includes(process.argv[4]||'zzz')) console.log('IMPORT', f.replace(/.*node_modules\//,''), '->', i.path.replace(/.*node_modules\//,''), i.kind);
