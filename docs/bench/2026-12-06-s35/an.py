import re,sys
span=float(sys.argv[1])
for r in (0,1):
    for line in open(f'/tmp/probe/trace-{r}.txt'):
        if not line.startswith('abs'): continue
        m=re.match(r'abs (\d+) ret (\d+) woke (\d+) end (\d+) start (\d+) \| over ([\d.]+)(.*)',line)
        a,ret,woke,end,start=map(int,m.groups()[:5]); over=float(m.group(6)); steps=m.group(7).split()
        last=steps[-1]; lt=int(re.search(r'@(-?\d+)',last).group(1))+start
        if over > span+0.4:
            print(f"r{r} abs {a} over {over:.2f} ret {ret} sleepover {woke-ret-int(span*1000)} waitAfterWake {end-woke} schedDone {lt} by {last[-1]} :: {' '.join(steps)}")
