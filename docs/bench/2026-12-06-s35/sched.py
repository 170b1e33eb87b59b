import re,sys,collections
# usage: sched.py perf.txt  -> for each bad call (over > span+1.5ms), timeline of both CPUs
tids={}
for r in (0,1):
    for line in open(f'/tmp/probe/trace-{r}.txt'):
        if line.startswith('tids'):
            for kv in line.split()[1:]:
                t,c=kv.split('=',1); tids[int(t)]=f"r{r}:{c}"
def name(pid,comm):
    return tids.get(pid, f"{comm}/{pid}")
ev=[]
for l in open(sys.argv[1]):
    m=re.search(r"\[(\d+)\]\s+([\d.]+):\s+sched:sched_switch:.*prev_comm=(.*?) prev_pid=(\d+).*prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)",l)
    if m: ev.append(('S',float(m.group(2)),int(m.group(1)),name(int(m.group(4)),m.group(3)),m.group(5),name(int(m.group(7)),m.group(6)))); continue
    m=re.search(r"\[(\d+)\]\s+([\d.]+):\s+sched:sched_wakeup:.*comm=(.*?) pid=(\d+).*target_cpu=(\d+)",l)
    if m: ev.append(('W',float(m.group(2)),int(m.group(1)),name(int(m.group(4)),m.group(3)),m.group(5)))
ev.sort(key=lambda e:e[1])
span=float(sys.argv[2]); which=int(sys.argv[3]) if len(sys.argv)>3 else 0
calls=[]
for r in (0,1):
    for line in open(f'/tmp/probe/trace-{r}.txt'):
        m=re.match(r'abs (\d+) ret (\d+) woke (\d+) end (\d+) start (\d+) \| over ([\d.]+)(.*)',line)
        if m and float(m.group(6))>span+1.5: calls.append((r,int(m.group(1)),float(m.group(6)),line.strip()))
calls.sort(key=lambda c:c[1])
for r,a,over,line in calls[which:which+1]:
    print(line)
    lo=a/1e6; hi=lo+over/1e3
    # absolute: a is (nanoTime/1000) % 1e8 -> seconds modulo 100 s
    for e in ev:
        t=e[1]%100
        if lo-0.0005<=t<=hi+0.0005:
            us=(t-lo)*1e6
            if e[0]=='S': print(f"  {us:8.0f} cpu{e[2]} {e[3]} [{e[4]}] -> {e[5]}")
            else: print(f"  {us:8.0f} cpu{e[2]}   wake {e[3]} -> cpu{e[4]}")
print(len(calls),"bad calls")
