#!/usr/bin/env python3
"""Noise of a decision-set judge: for two sets of the same decisions (tools: cubeful-cli bench
decisions with two judges or two rollout lengths), the RMS by class of the difference between
the sets in each candidate's score minus the best candidate's (best by the second set).
docs/TRAINING.md, "Judged by rollouts".   usage: decision-set-noise.py A.bin B.bin"""
import struct,sys,math
def load(f):
    b=open(f,'rb').read()[:-4]
    at=8; ver,=struct.unpack_from('<I',b,at); at+=4
    at+=8+4
    if ver==1: at+=1
    else: at+=5
    at+=4; n,=struct.unpack_from('<I',b,at); at+=4
    out=[]
    for i in range(n):
        pos=b[at:at+26]; at+=26; d=b[at:at+2]; at+=2; cls=b[at]; k=b[at+1]; at+=2
        c={}
        for j in range(k):
            a=b[at:at+26]; at+=26; e,=struct.unpack_from('<f',b,at); at+=4; c[a]=e
        out.append((pos,d,cls,c))
    return out
A=load(sys.argv[1]); B=load(sys.argv[2])
diffs={0:[],1:[],2:[]}
for (p,d,cl,ca),(p2,d2,cl2,cb) in zip(A,B):
    assert p==p2
    keys=list(cb.keys())
    # differences relative to the first key by B's order
    ref=max(keys,key=lambda k:cb[k])
    for k in keys:
        if k==ref: continue
        diffs[cl].append((ca[k]-ca[ref])-(cb[k]-cb[ref]))
for c in diffs:
    v=diffs[c]
    if v: print(c,len(v),'rms diff of (cand-best) between sets %.4f'%math.sqrt(sum(x*x for x in v)/len(v)), 'max %.3f'%max(abs(x) for x in v))
