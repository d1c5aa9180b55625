"""Run by ``torchrun`` in the tests: join the job with ``hd.distributed.initialize()``, psum over it."""

import sys

import torch

import hedera as hd

D, P = hd.distributed, hd.distributed.P

if __name__ == "__main__":
    D.initialize()
    mesh = D.Mesh(D.process_count(), "data", backend="torch")
    rank = D.process_index()
    f = D.shard_map(lambda b: D.psum(b, "data"), mesh, (P("data"),), P())
    total = f(torch.arange(2.0 * mesh.size))  # the ranks' pairs summed
    # one write per line: the ranks share torchrun's stdout, and print's separate write of the
    # newline let two ranks' lines run together
    sys.stdout.write(f"rank {rank} of {mesh.size}: {total.tolist()}\n")
    sys.stdout.flush()
