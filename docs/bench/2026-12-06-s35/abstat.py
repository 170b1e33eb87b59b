import sys,collections,statistics as st
d=collections.defaultdict(list)
for f in sys.argv[1:]:
    for l in open(f):
        p=l.split()
        if len(p)<10 or p[3]!='OVERLAP': continue
        np_=p[1]; b=p[2]; kind=p[4]; size=p[5]; ov=float(p[9])
        d[(np_,kind,size,b)].append(ov)
keys=sorted(set(k[:3] for k in d))
for k in keys:
    t=d.get(k+('batch=true',),[]); f_=d.get(k+('batch=false',),[])
    print(f"{k[0]} {k[1]:12s} {k[2]:>9s}  batch: med {st.median(t) if t else 0:5.1f} min {min(t) if t else 0:5.1f} [{' '.join('%.1f'%x for x in t)}]   default: med {st.median(f_) if f_ else 0:5.1f} min {min(f_) if f_ else 0:5.1f} [{' '.join('%.1f'%x for x in f_)}]")
