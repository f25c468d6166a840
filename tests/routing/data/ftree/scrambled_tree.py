# A k-ary 3-tree with scrambled GUIDs and port numbers, in ibnetdiscover format.
import random, sys
k = int(sys.argv[1]); seed = int(sys.argv[2]); out = sys.argv[3]
rng = random.Random(seed)
# switches: level 0 leaves (p, i): p pod 0..k-1, i 0..k-1 ; level 1 (p, a); level 2 roots (a, b)
sw = []
for p in range(k):
    for i in range(k): sw.append(('L', p, i))
for p in range(k):
    for a in range(k): sw.append(('M', p, a))
for a in range(k):
    for b in range(k): sw.append(('R', a, b))
guids = rng.sample(range(0x100, 0xfff), len(sw))
sguid = {s: 0x2000000 + g * 0x10 for s, g in zip(sw, guids)}
nports = 2 * k
ports = {s: rng.sample(range(1, nports + 1), nports) for s in sw}  # random port assignment
links = {}  # (sw, port) -> (node, port)
used = {s: 0 for s in sw}
def take(s):
    p = ports[s][used[s]]; used[s] += 1; return p
hosts = []
for p in range(k):
    for i in range(k):
        for h in range(k):
            hosts.append(('H', p, i, h))
hguid = {h: 0x1000000 + 2 * g for h, g in zip(hosts, rng.sample(range(0x100, 0xfff), len(hosts)))}
for h in hosts:
    s = ('L', h[1], h[2]); ps = take(s)
    links[(s, ps)] = (h, 1); links[(h, 1)] = (s, ps)
for p in range(k):
    for i in range(k):
        for a in range(k):
            l, m = ('L', p, i), ('M', p, a); pl, pm = take(l), take(m)
            links[(l, pl)] = (m, pm); links[(m, pm)] = (l, pl)
for p in range(k):
    for a in range(k):
        for b in range(k):
            m, r = ('M', p, a), ('R', a, b); pm, pr = take(m), take(r)
            links[(m, pm)] = (r, pr); links[(r, pr)] = (m, pm)
def name(n):
    if n[0] == 'H': return 'H-%016x' % hguid[n]
    return 'S-%016x' % sguid[n]
def desc(n):
    return ('Hca-%d-%d-%d' % n[1:]) if n[0] == 'H' else ('Sw-%s-%d-%d' % n)
with open(out, 'w') as f:
    order = sw[:]; rng.shuffle(order)
    for s in order:
        g = sguid[s]
        f.write('vendid=0x0\ndevid=0x0\nsysimgguid=0x%x\nswitchguid=0x%x(%x)\n' % (g, g, g))
        f.write('Switch\t%d "%s"\t\t# "%s"\n' % (nports, name(s), desc(s)))
        for pp in range(1, nports + 1):
            if (s, pp) not in links: continue
            n, q = links[(s, pp)]
            if n[0] == 'H':
                f.write('[%d]\t"%s"[%d](%x) \t\t# "%s" lid 0 4xEDR\n' % (pp, name(n), q, hguid[n] + 1, desc(n)))
            else:
                f.write('[%d]\t"%s"[%d]\t\t# "%s" lid 0 4xEDR\n' % (pp, name(n), q, desc(n)))
        f.write('\n')
    for h in hosts:
        g = hguid[h]
        s, pp = links[(h, 1)]
        f.write('vendid=0x0\ndevid=0x0\nsysimgguid=0x%x\ncaguid=0x%x\n' % (g, g))
        f.write('Ca\t1 "%s"\t\t# "%s"\n' % (name(h), desc(h)))
        f.write('[1](%x) \t"%s"[%d]\t\t# lid 0 lmc 0 "%s" lid 0 4xEDR\n\n' % (g + 1, name(s), pp, desc(s)))
