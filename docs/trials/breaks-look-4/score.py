"""Which root lines of this trial cpn-verdict lists in What breaks first:
run from anywhere once the packages are extracted under /work/trials/breaks-look-4
(see sources.json); prints main-run and probe-level hits."""
import json, subprocess, os, sys
os.chdir('/work/trials/breaks-look-4')
roots = {
 'main': [('pythtb.py', 3950), ('cma/bbobbenchmarks.py', 119), ('bezier/hazmat/curve_helpers.py', 33)],
 'probe': [('pythtb.py', 122), ('pythtb.py', 277), ('pythtb.py', 935), ('pythtb.py', 2003), ('pythtb.py', 1385), ('pythtb.py', 877), ('pythtb.py', 1611), ('pythtb.py', 298),
           ('cma/bbobbenchmarks.py', 120), ('cma/fitness_functions.py', 326), ('cma/fitness_functions.py', 254), ('cma/bbobbenchmarks.py', 1240), ('cma/constraints_handler.py', 439), ('cma/fitness_models.py', 864), ('cma/utilities/math.py', 102), ('cma/evolution_strategy.py', 1273), ('cma/evolution_strategy.py', 854),
           ('bezier/hazmat/algebraic_intersection.py', 44), ('bezier/_base.py', 120), ('bezier/hazmat/algebraic_intersection.py', 716), ('bezier/hazmat/algebraic_intersection.py', 722), ('bezier/hazmat/curve_helpers.py', 894), ('bezier/hazmat/helpers.py', 318), ('bezier/hazmat/triangle_helpers.py', 748)],
}
listed = set()
for target in ('pythtb.py', 'cma', 'bezier'):
    env = dict(os.environ, CPN_LINT_NO_CACHE='1')
    out = subprocess.run(['cpn-verdict', target, '--format', 'json'], capture_output=True, text=True, env=env).stdout
    d = json.loads(out)
    for i in d['sections']['verdict']['breaks_first']['items']:
        listed.add((i['path'], i['line']))
for kind, rs in roots.items():
    hit = [r for r in rs if r in listed]
    print(kind, f"{len(hit)}/{len(rs)}")
    for r in rs:
        print('  ', 'Y' if r in listed else '-', r)
