"""The shipped variants play the same games as before the turn became data (`[turn]`, the turn
loop's throw state): for a few seeds and pairs of bots, the digest of what `tablier play
VARIANT --seed S --json --save FILE` prints and saves (sha256 of the JSON summary, a zero byte,
the saved record) is the one the code gave before the change, recorded here.

The default run plays one game a variant; the others are behind `slow`."""
from __future__ import annotations

import hashlib

import pytest

from interpreter.cli import main

#: (variant, seed, white, black) → digest, computed with the code before the change
DIGESTS = {
    ("acey-deucey", 1, "random", "greedy"): "87bae8b3642118500d8f2435e428815379c4ac0d676f8e5e3fdaa2f40cc52557",
    ("acey-deucey", 2, "greedy", "greedy"): "c3958dc1510369171a82637bf3642accb11b192c5c33f74a2cec5386b7ba7356",
    ("acey-deucey", 3, "random", "random"): "0438036683c7fce7f1d5f7e8ed79df2233db546426b4bd0e0b9b6f23ccee0e4f",
    ("backgammon", 1, "random", "greedy"): "2d3c09cd62b349b48e4102bd9ba38ab3736e7ed349e339de0efd66f88661be28",
    ("backgammon", 2, "greedy", "greedy"): "3fab4090530cbb434c590c4b5987fb1869c62dd5c4015e5729c90ec8bb7352af",
    ("backgammon", 3, "random", "random"): "86c88712a8634abff018139b512b869ed558251d57da2be32b1f7580cd1b4e25",
    ("fevga", 1, "random", "greedy"): "5a4ac261b0d8664e70f75cf1606da503e9a6c96e63cb01a9764ace9d6f9e534a",
    ("fevga", 2, "greedy", "greedy"): "a975ccb222a22fc278c87498c9ad08fd051d318fe4bf6a0c4498cffb291b22f9",
    ("fevga", 3, "random", "random"): "b1e8b3227a71ae639fde8a75f324e79e8243f331c480ae296ec9f6e31f40ae40",
    ("hypergammon", 1, "random", "greedy"): "4dc5b510715d3575f6d833f209698695bf8461855f0fe954ca79b3a304097d2f",
    ("hypergammon", 2, "greedy", "greedy"): "ec87deaa94e9016007e679ae510b79c40f1d5edf2353e92c54a48e8e2d5e0262",
    ("hypergammon", 3, "random", "random"): "60ae9f70212e059ebe515dc1a4562ce8a55ba2b208ae9b2db93f79e6ce9e30bd",
    ("long-nardy", 1, "random", "greedy"): "21d87ee4fe027abbda858e319002d3ca975cc560c62b23791fcab26402f7f1d7",
    ("long-nardy", 2, "greedy", "greedy"): "db947cae79248f37155d5b70b4ffc7acc06ab7874fd9ee91ee9787b4f704d001",
    ("long-nardy", 3, "random", "random"): "402a8441adfe343c34793d3cf25e749ba0cbba7256df94fb86599caf57fff872",
    ("nackgammon", 1, "random", "greedy"): "874ce29ca6e6fc24d96ee14eec81b4e81cf397b91a3228b55847267779b02f53",
    ("nackgammon", 2, "greedy", "greedy"): "1dfb8f02a281a2b0f5e7054f6ee47aa287838f190d61d5a86b667fc1e4eb9f51",
    ("nackgammon", 3, "random", "random"): "b668a5a55f7869bdff84910f02b158bb177d195eb5d3caf726eb96d30dfd4593",
    ("plakoto", 1, "random", "greedy"): "9254d088a67456c8f86be09c21c18264daaa06f93763aa7bd2412b08522cce5f",
    ("plakoto", 2, "greedy", "greedy"): "258908d2d2fad49b23d5a191c3a9f65d1d549a5d89a5ee74daf1a967f5d1d980",
    ("plakoto", 3, "random", "random"): "1269bccdab2230cd468e90fb5e66ab2d1fe2eef20bab41f4914c6852f5db2f24",
    ("portes", 1, "random", "greedy"): "f70c96837cfbd86ced2f7d5953cee50ac72fcbd07eab40d61ae32c362294cdad",
    ("portes", 2, "greedy", "greedy"): "ee46d256f258c0f6299a093f19c530f00793bddf083c27d80d3f43f1a0b19ac5",
    ("portes", 3, "random", "random"): "4c7af6d8e0aee88068aa7b77b61faeb4147cd745e8625f75f3f408a2508b738d",
    ("tavli", 1, "random", "greedy"): "60c1986abda77d72392cb71d2cc05c92ea8583277eef4edeb3ed4c19d4987004",
    ("tavli", 2, "greedy", "greedy"): "2c05ce125077177dc37ccea138c2505cae490a6dcd24af0b3c0f6e93da1d77df",
    ("tavli", 3, "random", "random"): "4f28edee84fef60a5c5e8f530349e24a8439ff5addcde6b7112eff4e49aa54f5",
    ("tric-trac-12", 1, "random", "greedy"): "3863deb43d70237b8f2ad22fbf3b0ebf1335546121dfd01f27d5904230ac95cf",
    ("tric-trac-12", 2, "greedy", "greedy"): "a8e22f246211655c391440e7e9bad050910c12bdf4fcf9e734b6a34b51406fa1",
    ("tric-trac-12", 3, "random", "random"): "de50048fd0334100a84f5150da8954ae35e49030935691037658f81803d8bef5",
    ("trictrac-combine", 1, "random", "greedy"): "a607643e74e3c057cf6bdb0d933e2fb4a162c7ee34edab6ec484326c41fead61",
    ("trictrac-combine", 2, "greedy", "greedy"): "75852c069e690ca68bcec06e1fcefa7a49f5fea6f8f647d07b31d7b2ec4ebc9c",
    ("trictrac-combine", 3, "random", "random"): "5b54f44a01abe443155eb5ef2ce6483255e7905b9421aceaebe09ed430a8da37",
    ("trictrac-ecrire", 1, "random", "greedy"): "907cc8c946be17bc83f02286f0e4ff57f4869b48ab9956d4973457ae0c912b5a",
    ("trictrac-ecrire", 2, "greedy", "greedy"): "ac6b549f7b4ec723272b115684ec014f29cfc5d79dbcca518ffeb2776c28a588",
    ("trictrac-ecrire", 3, "random", "random"): "f0fa5795e058492c35753ad88e91c972a1a40e840e74dce56090ea7ac07ef813",
    ("triktrak", 1, "random", "greedy"): "a842ab43f459ee885761dfbc3ea576666bb099c7c82dbf56960dd2e5ace99ee2",
    ("triktrak", 2, "greedy", "greedy"): "a16c3b3446b29de4304762b7f9e919e5bbdc5c7c3e7e8358d64804d3117e19f0",
    ("triktrak", 3, "random", "random"): "95bf114d7dcc7091582ed1cc42812f9fca52826ffb926587f2c24a369d2c98ad",
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
    printed = capsys.readouterr().out.encode()
    digest = hashlib.sha256(printed + b"\0" + save.read_bytes()).hexdigest()
    assert digest == DIGESTS[(variant, seed, white, black)]
