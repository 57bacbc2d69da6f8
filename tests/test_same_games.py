"""The shipped variants play the same games as before the turn became data (`[turn]`, the turn
loop's throw state): for a few seeds and pairs of bots, the digest of what `tablier play
VARIANT --seed S --json --save FILE` plays (sha256 of the summary's winner, score, turns and
end, and of the save's record and state: every throw, every answer and where they led, but not
the summary's or the save's other fields, which may gain keys) is the one the code gave before
the change, recorded here.

The default run plays one game a variant; the others are behind `slow`."""
from __future__ import annotations

import hashlib
import json
import tomllib

import pytest

from interpreter.cli import main

#: (variant, seed, white, black) → digest, computed with the code before the change; acey-deucey's
#: games under greedy play computed after its doublet question was asked on the board the 1-2
#: left (before, the bot chose its doublet from the board before the 1-2 was played)
DIGESTS = {
    ("acey-deucey", 1, "random", "greedy"): "a83ce29f63976842476507353b7a6f8a08aa765a478eb92b5a554666c1b991c0",
    ("acey-deucey", 2, "greedy", "greedy"): "cdc9e2e194b37b1e249d16cb5d015c2491f71877c77705130234b06cc90cbbc8",
    ("acey-deucey", 3, "random", "random"): "28b5970295b859bc728dd6698393ef09bc6cfd80745ccc50e69721f5997cb08f",
    ("backgammon", 1, "random", "greedy"): "e3d30abcac694558577b56561ce2b2be20b5565d74ca3e15a1a810b01afd149f",
    ("backgammon", 2, "greedy", "greedy"): "0d985acdb8949ee8dc29205b54c876441a4029aa0d7e835f46fe59a9c91c229a",
    ("backgammon", 3, "random", "random"): "b4984de64888c6c96c79a85b70d07ade04e6e7f03373295792f4e5c402084cf4",
    ("fevga", 1, "random", "greedy"): "12a5f930e1d949f5e94ee6322b268200532b6b32b96ba63964ffbca96574c3c0",
    ("fevga", 2, "greedy", "greedy"): "7fa6d78825615328859d2a70c715f25ab50670b4c0823db0d975bce89f2cf832",
    ("fevga", 3, "random", "random"): "6a38420c23d83e5fc06936cff2af4f749921dde8e845db4df433658ef72f1c29",
    ("hypergammon", 1, "random", "greedy"): "8a61bd1c987d1e404b579523b97b06bfc9471c0fe90cf58e2f5ebfe9dd76c296",
    ("hypergammon", 2, "greedy", "greedy"): "6cf76b51c6965e7ab79b6290b6e959800ebe5f04de44a0c88838f25443d26054",
    ("hypergammon", 3, "random", "random"): "04d938b3a0aadc979b287a926ae402adf852ae175e3127aa051be9b7b0c9692f",
    ("long-nardy", 1, "random", "greedy"): "9021274b1de8f8131dbbf1acc913970f510cf23dde7c99f39ac7635a5fc06217",
    ("long-nardy", 2, "greedy", "greedy"): "aa4ca98088735077a44532ee0500fe5db9f49fa9009f50c6382bf675929ba820",
    ("long-nardy", 3, "random", "random"): "cecd52950052fb33cafb87a1b79ce620aff24b800f7e2c9797f0191244f6ce6a",
    ("nackgammon", 1, "random", "greedy"): "4c00af4d05464e2bfcef9156457db944cc28f07f975107b4e1f3f181f8283af9",
    ("nackgammon", 2, "greedy", "greedy"): "ab58c852d902c6258dfbb89bf1ec472b861dbcdf6740bcfe4cfc87418ce00494",
    ("nackgammon", 3, "random", "random"): "5605ea0b6b7386e0005fec238a637ca834cd9902f929e1b4ee05af30a0e7cf49",
    ("plakoto", 1, "random", "greedy"): "ad5689a33d2715214092b999a8561564de294afd312b040ff47b895d33906325",
    ("plakoto", 2, "greedy", "greedy"): "e3327375a31f98a12841166aba88f58d7d45bcee665e635b6fa1df5eb0cf7df2",
    ("plakoto", 3, "random", "random"): "8f9d7c3a3eda932d3f1ac6c8ba150a80a97095c5ed901b608be20d07c236f552",
    ("portes", 1, "random", "greedy"): "f96e2ac517e0f4ff7503754e6ca8da6eabdc17d3165119f16985587488b3e93b",
    ("portes", 2, "greedy", "greedy"): "990f85da1b0b9e840908ad830986fd84187b97b7efc38e8b39e81dc8a1b57cfc",
    ("portes", 3, "random", "random"): "57580c645a2655ace246e2b8c3c029d7965cb86862f83b8aed280ba29d7f5c70",
    ("tavli", 1, "random", "greedy"): "67b6bff770b131fc61639fccc59b3f683201491ed55eb71169ef9f56c45c8cc8",
    ("tavli", 2, "greedy", "greedy"): "0d86d0732f6005a857e9a92dc6086db05bca7330bc2cc373bfe6e48cbc818533",
    ("tavli", 3, "random", "random"): "c4c91db034b2f19192b4719d4938da691653d8bade0a5db22fb5011982a913d9",
    ("tric-trac-12", 1, "random", "greedy"): "0b059b11206ed46eb1c4bb54caeb1e110788e9660ffd7e365bad57c7746af7c7",
    ("tric-trac-12", 2, "greedy", "greedy"): "92f8de1f2bb1c8528884cb775ee55d77c5ade7a504002962aba280101f329a0d",
    ("tric-trac-12", 3, "random", "random"): "f6f0b23cf618e978dcf7053f28cb862acd3a508dd6165f085f9aa0b6077354b4",
    ("trictrac-combine", 1, "random", "greedy"): "57dd4c0ac5e5c1243a387369e0f37ae58734511d484896724a357bbf2a328fcc",
    ("trictrac-combine", 2, "greedy", "greedy"): "c0fe332a6a947ae96c661eda811ba3ee72f46f0b76c7c01ab43a3829cc743880",
    ("trictrac-combine", 3, "random", "random"): "775826fa05e38e6056e2503a39d4b3c0c0f60b88a3ef93cf91aabb571fef9b17",
    ("trictrac-ecrire", 1, "random", "greedy"): "d4eee7a130284fa6727fde38fc78289f94caa4551acc955fdef528bc6335498d",
    ("trictrac-ecrire", 2, "greedy", "greedy"): "4a91cf6c61affc4741a99330a2c667a70835962a1cb2888582ae37e69424b55c",
    ("trictrac-ecrire", 3, "random", "random"): "06972d72799ad0fb675aefeeb1c20be79705715c64a7a0d7103a890b4d9f7424",
    ("triktrak", 1, "random", "greedy"): "27af7cc77b540debf3e0cf7893ce863fc27dfb858f645cec6b09a2da72a25c2f",
    ("triktrak", 2, "greedy", "greedy"): "0f644e5ecda5b94dd33a3abac0816e877e26a470f6525dd4090040394e8c7d56",
    ("triktrak", 3, "random", "random"): "ec3710b05ea5cb0da37c4ea895c24875e0fe4580292e2529610daa0356e0dce5",
}


def _cases() -> list:
    out = []
    for key in DIGESTS:
        marks = () if key[1:] == (1, "random", "greedy") else (pytest.mark.slow,)
        out.append(pytest.param(*key, id="-".join(map(str, key)), marks=marks))
    return out


@pytest.mark.parametrize("variant,seed,white,black", _cases())
def test_same_game(variant, seed, white, black, tmp_path, capsys):
    save = tmp_path / "game.toml"
    capsys.readouterr()
    assert main(["play", variant, "--seed", str(seed), "--white", white, "--black", black,
                 "--json", "--save", str(save)]) == 0
    assert game_digest(capsys.readouterr().out, save.read_text(encoding="utf-8")) == \
        DIGESTS[(variant, seed, white, black)]


def game_digest(printed: str, saved: str) -> str:
    """The digest of the game itself: what `play --json` says of its end, and the save's
    record and state."""
    summary = json.loads(printed)
    data = tomllib.loads(saved)
    kept = {"summary": {k: summary.get(k) for k in ("winner", "score", "turns", "finished")},
            "record": data.get("record"), "state": data.get("state")}
    return hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()
