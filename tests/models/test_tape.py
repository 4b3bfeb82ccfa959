"""3490 format and drive timing: what a tape user would notice."""
import pytest

from models.tape import BLOCK_32K, CARTRIDGE_INCHES, TapeDrive, block_inches, tape_mark_inches
from models.tape.drive import START_STOP_S


def test_big_blocks_waste_less_tape_than_page_blocks():
    per_byte_4k = block_inches(4096) / 4096
    per_byte_32k = block_inches(BLOCK_32K) / BLOCK_32K
    assert per_byte_4k > 1.5 * per_byte_32k          # the gap dominates small blocks


def test_cartridge_holds_about_200_mb_of_32k_blocks():
    mb = CARTRIDGE_INCHES / block_inches(BLOCK_32K) * BLOCK_32K / 1e6
    assert 190 < mb < 230                            # 3480/3490 18-track: ~200 MB


def test_tape_mark_takes_tape():
    assert tape_mark_inches() > block_inches(0)


def test_synchronous_write_waits_for_stop_start_buffered_does_not():
    a, b = TapeDrive(0), TapeDrive(1)
    t_sync = a.write_sync(0.0, 4096)
    t_buf = b.write_buffered(0.0, 4096)
    assert t_sync > START_STOP_S > t_buf


def test_streaming_buffered_writes_run_at_tape_speed():
    d, t = TapeDrive(0), 0.0
    for _ in range(2000):                             # 64 MB, far past the 2 MB buffer
        t = d.write_buffered(t, BLOCK_32K)
    rate = 2000 * BLOCK_32K / t / 1e6
    assert 2.5 < rate < 3.0                           # 3 MB/s less the gaps


def test_change_mounts_a_new_cartridge_and_takes_the_time():
    d = TapeDrive(0)
    end = d.change(10.0, 60.0)
    assert end == pytest.approx(70.0) and d.cartridges == 2 and d.changes == 1


def test_drives_drawn_on_one_channel_share_its_4_5_mb_s():
    """Two drives streaming 32 KB blocks at once: on one channel they get
    4.5 MB/s between them; each on its own channel, each its 3 MB/s tape."""
    from models.tape import TapeChannel, TapeDrive

    def stream(shared: bool) -> float:
        ch = TapeChannel("CHPID 31")
        drives = [TapeDrive(i, channel=ch if shared else None) for i in range(2)]
        free = [0.0, 0.0]
        nbytes, blocks = 32 * 1024, 300
        for _ in range(blocks):
            for i, d in enumerate(drives):
                free[i] = d.write_buffered(free[i], nbytes)
        done = max(max(free), *(d.media_end for d in drives))
        return 2 * blocks * nbytes / done / 1e6

    shared, own = stream(True), stream(False)
    assert shared < 4.6                     # the channel is the limit
    assert own > 5.0 and own > 1.15 * shared   # two channels: the two tapes (2 x 3 MB/s) are
