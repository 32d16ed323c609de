"""Which root lines of this trial cpn-verdict lists in What breaks first:
run from anywhere once the packages are extracted under /tmp/bl5 (see
sources.json: one directory per repository, named <owner>+<name>); prints
main-run and probe-level hits. Not run by the session that built the trial."""
import json, subprocess, os, sys
BASE = '/tmp/bl5'
# (directory under BASE, package path given to cpn-verdict)
targets = [('pkienzle+periodictable', 'periodictable'),
           ('python-quantities+python-quantities', 'quantities'),
           ('sharppy+SHARPpy', 'sharppy')]
roots = {
 'main': [('periodictable/nsf.py', 526), ('quantities/dimensionality.py', 333), ('sharppy/sharptab/profile.py', 4)],
 'probe': [('periodictable/xsf.py', 263), ('periodictable/nsf.py', 453),
           ('quantities/quantity.py', 667), ('quantities/quantity.py', 762), ('quantities/quantity.py', 773), ('quantities/unitquantity.py', 47), ('quantities/unitquantity.py', 203), ('quantities/dimensionality.py', 165), ('quantities/dimensionality.py', 172), ('quantities/quantity.py', 116), ('quantities/dimensionality.py', 66),
           ('sharppy/sharptab/interp.py', 5), ('sharppy/sharptab/interp.py', 98), ('sharppy/sharptab/interp.py', 54), ('sharppy/sharptab/interp.py', 256), ('sharppy/sharptab/interp.py', 410), ('sharppy/sharptab/interp.py', 356)],
}
listed = set()
for d, target in targets:
    os.chdir(os.path.join(BASE, d))
    env = dict(os.environ, CPN_LINT_NO_CACHE='1')
    out = subprocess.run(['cpn-verdict', target, '--format', 'json'], capture_output=True, text=True, env=env).stdout
    dd = json.loads(out)
    for i in dd['sections']['verdict']['breaks_first']['items']:
        listed.add((i['path'], i['line']))
for kind, rs in roots.items():
    hit = [r for r in rs if r in listed]
    print(kind, f"{len(hit)}/{len(rs)}")
    for r in rs:
        print('  ', 'Y' if r in listed else '-', r)
