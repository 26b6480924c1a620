"""The held-out labelled set no. 25 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
The theme is hobbies, making, collecting and learning: a home-brewed IPA's gravity readings and a hop order, a
sourdough starter, a pottery kiln log, ham radio QSL cards, a chess club's rating list, a record office's reply
about a baptism, a language app's streaks exported as JSON, driving lessons, piano practice minutes, a camera
club competition, an online coin auction and the coins bought at fairs, a stamp dealer's price list, parts for a
vintage BSA's top end, a 3D printer's job log, a model railway exhibition, a quilting sampler, a board-game café
league, a woodwork class, a choir's Christmas programme, a bird year list, a telescope mirror's figure, an Open
University assignment, beehive inspections, a shrimp tank's water tests, a quarter peal's band, Japanese
homework, a knitting pattern's errata and a vinyl want list. Formats vary: CSV, Markdown tables, ``key: value``
files, JSON, mails, bulleted notes, diary entries and memories. Most variants are near misses: the watched thing
changes but the condition is not met (another player, batch, hive, tank, lot, layout, pattern or bird; exactly on
a threshold; a figure in other units; a plan, promise, target, forecast or hope instead of a fact; a past event
retold; a negation; the same word in another sense, such as "ready" for the next step or "final" for a
rehearsal; the right thing in the wrong file or folder; a mail from the awaited sender about something else, or
saying the awaited answer comes later). Several conditions can only be judged with rows already in the file (the
same gravity twice running, a week's practice total, every part of a list arrived, a bird not yet on the list, a
ringer short of a full band), several are met by rewriting a whole file, and two families hold only near misses.
The text is the project's own.
"""

from __future__ import annotations

from bench.judgement_set import (
    ACT,
    ESCALATE,
    HOME,
    NOOP,
    Change,
    Situation,
    Variant,
    family,
)
from bench.judgement_set import (
    mail as _mail,
)

SITUATIONS: list[Situation] = []


_GRAVITY = ("date,batch,sg\n2026-03-01,west coast IPA,1.062\n2026-03-04,west coast IPA,1.031\n"
            "2026-03-06,oatmeal stout,1.071\n2026-03-07,west coast IPA,1.017\n2026-03-09,oatmeal stout,1.041\n"
            "2026-03-10,west coast IPA,1.013\n")
SITUATIONS += family(
    "ipa gravity", "let me know when the west coast IPA gives the same gravity reading twice in a row "
    "(brewing/gravity.csv), that means it's done and I can bottle it",
    {**HOME, "brewing/gravity.csv": _GRAVITY,
     "brewing/notes.md": "# Brew notes\n\n- IPA: US-05, pitched at 18 C, dry hopped day 5 with Citra and Mosaic\n"}, [
        Variant("1.013 again", Change(append={"brewing/gravity.csv": "2026-03-12,west coast IPA,1.013\n"}),
                ACT, "1.013 on the 12th after 1.013 on the 10th: the same reading twice in a row, it is ready"),
        Variant("still dropping", Change(append={"brewing/gravity.csv": "2026-03-12,west coast IPA,1.011\n"}),
                NOOP, "1.011 after 1.013: the gravity is still falling, so fermentation is not finished"),
        Variant("stout steady", Change(append={"brewing/gravity.csv": "2026-03-12,oatmeal stout,1.041\n"}),
                NOOP, "the stout reads 1.041 twice; the IPA has only one reading at 1.013"),
        Variant("target in notes", Change(append={"brewing/notes.md": (
            "- IPA: aiming to finish around 1.012-1.013, then bottle with 120 g of sugar\n")}),
                NOOP, "a hoped-for final gravity in the notes, not a new reading"),
    ])

_STARTER = ("# Starter diary (Hilda, wholemeal rye)\n\n"
            "- Mon 2 Feb: fed 9am 1:1:1, by 3pm up about a third.\n"
            "- Tue 3 Feb: fed 9am, up by half by 3pm. Smells of nail varnish.\n"
            "- Wed 4 Feb: fed 8am, up about 70% by 4pm.\n")
SITUATIONS += family(
    "starter doubling", "once my sourdough starter doubles within 6 hours of a feed, tell me it's ready for a first "
    "loaf (baking/starter.md)",
    {**HOME, "baking/starter.md": _STARTER}, [
        Variant("doubled in five", Change(append={"baking/starter.md": (
            "- Thu 5 Feb: fed 8am, doubled by 1pm! Domed and bubbly, smells of yoghurt now.\n")}),
                ACT, "fed at 8am and doubled by 1pm, five hours: tell them it is ready"),
        Variant("doubled in nine", Change(append={"baking/starter.md": (
            "- Thu 5 Feb: fed 8am, up 80% at 2pm, finally doubled by about 5pm.\n")}),
                NOOP, "it doubled about nine hours after the feed, not within six"),
        Variant("ninety percent", Change(append={"baking/starter.md": (
            "- Thu 5 Feb: fed 8am, up about 90% by 2pm, then it started to sink.\n")}),
                NOOP, "it rose about 90 % and fell back; it never doubled"),
        Variant("kath's starter", Change(append={"baking/starter.md": (
            "- Thu 5 Feb: Kath's starter (the jar she gave me) doubled in 4 hours. Hilda only rose by 80% in the "
            "same time.\n")}),
                NOOP, "the starter that doubled is Kath's; theirs rose 80 %"),
    ])

_KILN = ("# Kiln log\n\n| date | firing | programme | peak (°C) | notes |\n|---|---|---|---|---|\n"
         "| 2026-02-03 | bisque | slow bisque | 1000 | mugs and bowls |\n"
         "| 2026-02-10 | glaze | cone 6 | 1222 | tenmoku a bit dry |\n"
         "| 2026-02-17 | glaze | cone 6 + 10 min hold | 1236 | good shine |\n")
SITUATIONS += family(
    "kiln peak", "warn me if any firing in pottery/kiln-log.md peaks above 1240°C, the new celadon runs off the pots "
    "past that",
    {**HOME, "pottery/kiln-log.md": _KILN}, [
        Variant("1247", Change(append={"pottery/kiln-log.md": (
            "| 2026-02-24 | glaze | cone 6 + 10 min hold | 1247 | new thermocouple fitted |\n")}),
                ACT, "the firing on 24 February peaked at 1247 °C, above 1240: warn them"),
        Variant("exactly 1240", Change(append={"pottery/kiln-log.md": (
            "| 2026-02-24 | glaze | cone 6 + 10 min hold | 1240 | celadon test tiles |\n")}),
                NOOP, "the peak is exactly 1240 °C, not above it"),
        Variant("fahrenheit", Change(append={"pottery/kiln-log.md": (
            "| 2026-02-24 | glaze | cone 6 (club kiln, controller shows °F) | 2255 °F | |\n")}),
                NOOP, "2255 °F is about 1235 °C, below 1240"),
        Variant("programmed", Change(append={"pottery/kiln-log.md": (
            "| 2026-03-03 | glaze | cone 6 slow cool, programmed to 1250, firing tonight | - | |\n")}),
                NOOP, "a programme set for tonight's firing; no firing has peaked there yet"),
    ])

_QSL = ("date,call,country,continent,band,qsl\n2026-01-11,JA1XKT,Japan,AS,20m,confirmed\n"
        "2026-01-19,PY2RZ,Brazil,SA,15m,confirmed\n2026-01-24,W8QTL,USA,NA,40m,confirmed\n"
        "2026-02-02,ZL2BQ,New Zealand,OC,20m,sent\n2026-02-08,5H3AB,Tanzania,AF,17m,confirmed\n"
        "2026-02-09,DL4MFR,Germany,EU,40m,confirmed\n")
SITUATIONS += family(
    "wac oceania", "Oceania is the last continent I need for my WAC award. let me know when a contact from there is "
    "confirmed in radio/qsl.csv",
    {**HOME, "radio/qsl.csv": _QSL}, [
        Variant("zl confirmed", Change(write={"radio/qsl.csv": _QSL.replace(
            "ZL2BQ,New Zealand,OC,20m,sent", "ZL2BQ,New Zealand,OC,20m,confirmed")}),
                ACT, "the New Zealand contact, continent OC, is now confirmed: tell them"),
        Variant("vk not confirmed", Change(append={"radio/qsl.csv": "2026-02-20,VK4DX,Australia,OC,20m,sent\n"}),
                NOOP, "an Australian contact was worked, but its card is only sent, not confirmed"),
        Variant("japan again", Change(append={"radio/qsl.csv": "2026-02-20,JH3PQW,Japan,AS,15m,confirmed\n"}),
                NOOP, "the new confirmed contact is in Asia, not Oceania"),
        Variant("promise on forum", Change(write={"radio/notes.md": (
            "ZL2BQ says on the forum he'll post his cards for February next week.\n")}),
                NOOP, "a promise to post the card, in another file; radio/qsl.csv still says sent"),
    ])

_RATINGS = ("# Northgate Chess Club ratings (after the February ladder)\n\n| player | rating | games |\n|---|---|---|\n"
            "| Gill Harper | 1712 | 41 |\n| Navid Qureshi | 1604 | 30 |\n| Tom Ashworth | 1588 | 23 |\n"
            "| Ellie Byrne | 1540 | 12 |\n| Frank Lowe | 1497 | 35 |\n")
SITUATIONS += family(
    "club rating 1600", "I'm Tom Ashworth. tell me when my club rating goes over 1600 (chess/ratings.md)",
    {**HOME, "chess/ratings.md": _RATINGS}, [
        Variant("1611", Change(write={"chess/ratings.md": _RATINGS.replace("February", "March").replace(
            "| Tom Ashworth | 1588 | 23 |", "| Tom Ashworth | 1611 | 27 |")}),
                ACT, "Tom's club rating is 1611 after March, over 1600: tell him"),
        Variant("1623 after the rapidplay", Change(write={"chess/ratings.md": (
            "# Northgate Chess Club ratings (after the rapidplay)\n\n| player | rating | games |\n|---|---|---|\n"
            "| Gill Harper | 1704 | 47 |\n| Tom Ashworth | 1623 | 29 |\n| Navid Qureshi | 1597 | 34 |\n")}),
                ACT, "the rewritten list puts Tom at 1623, over 1600: tell him"),
        Variant("exactly 1600", Change(write={"chess/ratings.md": _RATINGS.replace("February", "March").replace(
            "| Tom Ashworth | 1588 | 23 |", "| Tom Ashworth | 1600 | 27 |")}),
                NOOP, "Tom is on exactly 1600, which is not over 1600"),
        Variant("navid up", Change(write={"chess/ratings.md": _RATINGS.replace("February", "March").replace(
            "| Navid Qureshi | 1604 | 30 |", "| Navid Qureshi | 1631 | 34 |")}),
                NOOP, "it is Navid's rating that rose; Tom is still on 1588"),
        Variant("online blitz", Change(append={"chess/ratings.md": (
            "\nOnline, for fun (lichess blitz): Tom Ashworth 1655, Gill Harper 1801\n")}),
                NOOP, "an online blitz rating, not the club rating, which is still 1588"),
    ])

_THWAITE = ("# Ellen Thwaite (b. about 1841)\n\n- 1851 census: Whitehaven, age 10, daughter of John (miner) and "
            "Mary\n- 1861: servant in Egremont, born 'St Bees'\n- married Isaac Pears 1863, Egremont\n"
            "- asked the archive (ref 26/118) to search St Bees and Whitehaven baptisms 1839-1843\n")
SITUATIONS += family(
    "thwaite baptism", "When the archive centre in Whitehaven replies about Ellen Thwaite's baptism, compare what "
    "they found with my notes in family-history/thwaite.md and draft my next questions for them",
    {**HOME, "family-history/thwaite.md": _THWAITE}, [
        Variant("baptism found", Change(write={"mail/2026-04-21-archive.txt": _mail(
            "Whitehaven Archive Centre <enquiries@whitehaven-archive.example>", "Your enquiry 26/118: Thwaite",
            "We found a baptism at St Bees on 14 March 1841: Ellen, daughter of John Thwaite, labourer, and Mary "
            "his wife, of Sandwith. There is no Ellen Thwaite in the Whitehaven registers for 1839-1843.")}),
                ESCALATE, "the archive found a baptism (father a labourer, of Sandwith): compare with the notes and "
                          "draft follow-up questions"),
        Variant("not found but burial", Change(write={"mail/2026-04-21-archive.txt": _mail(
            "Whitehaven Archive Centre <enquiries@whitehaven-archive.example>", "Your enquiry 26/118: Thwaite",
            "We did not find Ellen's baptism in either register for 1839-1843. We did find the burial of a John "
            "Thwaite, miner, aged 38, at St Nicholas, Whitehaven, on 2 May 1852.")}),
                ESCALATE, "the archive replied with no baptism but a possible father's burial: weigh it against the "
                          "notes and draft the next questions"),
        Variant("acknowledgement", Change(write={"mail/2026-04-02-archive.txt": _mail(
            "Whitehaven Archive Centre <enquiries@whitehaven-archive.example>", "Enquiry received: 26/118",
            "Thank you for your search request. Our research service aims to reply within 25 working days.")}),
                NOOP, "only an acknowledgement; the reply with the search result is still to come"),
        Variant("closure notice", Change(write={"mail/2026-04-02-archive.txt": _mail(
            "Whitehaven Archive Centre <news@whitehaven-archive.example>", "Search room closed 6-17 April",
            "The search room will be closed for stocktaking from 6 to 17 April. Remote enquiries continue.")}),
                NOOP, "a mail from the archive about closing dates, not about Ellen's baptism"),
        Variant("other archive", Change(write={"mail/2026-04-21-lancashire.txt": _mail(
            "Lancashire Archives <archives@lancs.example>", "Your enquiry: will of Isaac Pears",
            "We hold a will for an Isaac Pears of Ulverston, proved 1901. A copy costs 12 pounds.")}),
                NOOP, "another archive writing about Isaac Pears's will, not the Whitehaven reply on the baptism"),
    ])


def _streaks(day: str, italian: int, welsh: int, italian_xp: int = 14820, extra: str = "") -> str:
    return ('{\n  "exported": "' + day + '",\n  "courses": [\n'
            f'    {{"language": "Italian", "streak_days": {italian}, "xp": {italian_xp}{extra}}},\n'
            f'    {{"language": "Welsh", "streak_days": {welsh}, "xp": 3110}}\n  ]\n}}\n')


SITUATIONS += family(
    "italian streak", "tell me when my italian streak hits 100 days. the app export rewrites learning/streaks.json "
    "every night",
    {**HOME, "learning/streaks.json": _streaks("2026-04-08", 97, 96)}, [
        Variant("100 days", Change(write={"learning/streaks.json": _streaks("2026-04-11", 100, 99, 15240)}),
                ACT, "the Italian streak reads 100 days: tell them"),
        Variant("98 days", Change(write={"learning/streaks.json": _streaks("2026-04-09", 98, 97, 14960)}),
                NOOP, "the Italian streak is 98 days, not yet 100"),
        Variant("welsh 100", Change(write={"learning/streaks.json": _streaks("2026-04-09", 96, 100, 14610)}),
                NOOP, "the Welsh streak reached 100; the Italian one is on 96",
                before={**HOME, "learning/streaks.json": _streaks("2026-04-08", 95, 99, 14470)}),
        Variant("streak lost", Change(write={"learning/streaks.json": _streaks(
            "2026-04-09", 0, 97, 14820, ', "streak_lost_on": "2026-04-08"')}),
                NOOP, "the Italian streak broke and is back to 0, far from 100"),
    ])

_LESSONS = ("# Driving lessons with Dev\n\n- 7 Apr: roundabouts, mirror check late on the exit.\n"
            "- 14 Apr: bay parking good, parallel park still wide.\n"
            "- 21 Apr: mock test, 6 minors and 1 serious (slow to react on the emergency stop).\n")
SITUATIONS += family(
    "test ready", "when Dev says in my lesson notes that I'm ready for my test, plan my remaining lessons and the "
    "practice drives with Dad up to the test on 22 May (driving/lessons.md, driving/dad-free.md)",
    {**HOME, "driving/lessons.md": _LESSONS,
     "driving/dad-free.md": "Dad can take me out: Tue and Thu evenings after 6, Sunday mornings.\n"}, [
        Variant("ready", Change(append={"driving/lessons.md": (
            "- 28 Apr: second mock, 3 minors, no serious. Dev: you're ready for the test, just keep it ticking "
            "over till then.\n")}),
                ESCALATE, "Dev says they are ready for the test: plan lessons and drives with Dad up to 22 May"),
        Variant("test standard", Change(append={"driving/lessons.md": (
            "- 28 Apr: Dev signed me off as test standard today, parallel park finally tidy.\n")}),
                ESCALATE, "signed off as test standard is Dev saying they are ready: plan the weeks to the test"),
        Variant("ready for dual carriageway", Change(append={"driving/lessons.md": (
            "- 28 Apr: Dev says I'm ready for the dual carriageway, we'll do the A61 next week. Not test standard "
            "yet on the parallel park.\n")}),
                NOOP, "ready for the dual carriageway, not for the test, which he says they are not at yet"),
        Variant("not ready", Change(append={"driving/lessons.md": (
            "- 28 Apr: Dev: not ready for the test yet, two serious faults at the junction by the station.\n")}),
                NOOP, "Dev says they are not ready for the test"),
        Variant("if the mock goes well", Change(append={"driving/lessons.md": (
            "- 28 Apr: Dev says if the mock on 5 May goes well he'll call me test-ready.\n")}),
                NOOP, "a condition for later; Dev has not said they are ready"),
    ])

_PRACTICE = ("date,instrument,minutes,what\n2026-03-16,piano,45,scales and the Bach minuet\n"
             "2026-03-17,piano,60,Clementi sonatina\n2026-03-18,guitar,30,chords for the open mic\n"
             "2026-03-19,piano,50,sight reading and Bach\n2026-03-20,piano,40,Clementi\n"
             "2026-03-21,piano,55,run through of all three pieces\n")
SITUATIONS += family(
    "piano five hours", "let me know when I've done 5 hours of piano practice in a week, Monday to Sunday "
    "(music/practice.csv, it's in minutes)",
    {**HOME, "music/practice.csv": _PRACTICE}, [
        Variant("sunday hour", Change(append={"music/practice.csv": "2026-03-22,piano,60,scales and Clementi\n"}),
                ACT, "piano this week is now 45 + 60 + 50 + 40 + 55 + 60 = 310 minutes, over 5 hours: tell them"),
        Variant("sunday 45", Change(append={"music/practice.csv": "2026-03-22,piano,45,scales and Clementi\n"}),
                NOOP, "piano this week adds up to 295 minutes, just short of 300"),
        Variant("guitar", Change(append={"music/practice.csv": "2026-03-22,guitar,70,open mic set\n"}),
                NOOP, "the new 70 minutes are guitar; piano stays at 250 minutes this week"),
        Variant("next monday", Change(append={"music/practice.csv": "2026-03-23,piano,90,long Bach session\n"}),
                NOOP, "Monday 23 March starts a new week; last week's piano ended at 250 minutes"),
    ])

_RESULTS = ("# Wolds Camera Club results\n\n## Street (judge: Pat Linley)\n\n1st 'Market day' - Jan Pole\n"
            "2nd 'Bus stop, Hull' - Sam Okafor\n3rd 'Late shift' - Dee Marr\n\n"
            "## Reflections\n\nEntries closed, 38 prints. Judging on 12 March.\n")
SITUATIONS += family(
    "reflections placing", "I'm Sam Okafor. tell me if one of my photos gets placed in the club's Reflections "
    "competition (photo/club-results.md)",
    {**HOME, "photo/club-results.md": _RESULTS}, [
        Variant("second place", Change(write={"photo/club-results.md": _RESULTS.replace(
            "Entries closed, 38 prints. Judging on 12 March.",
            "Judge: Rona Kett\n\n1st 'Still water, Hornsea Mere' - Jan Pole\n2nd 'Canal at dusk' - Sam Okafor\n"
            "3rd 'Puddle, Beverley' - Alan Gray")}),
                ACT, "Sam's 'Canal at dusk' is placed second in Reflections: tell him"),
        Variant("not placed", Change(write={"photo/club-results.md": _RESULTS.replace(
            "Entries closed, 38 prints. Judging on 12 March.",
            "Judge: Rona Kett\n\n1st 'Still water, Hornsea Mere' - Jan Pole\n2nd 'Puddle, Beverley' - Alan Gray\n"
            "3rd 'Window, Hessle Road' - Dee Marr")}),
                NOOP, "the Reflections results are out but none of the three placed photos is Sam's"),
        Variant("judging moved", Change(write={"photo/club-results.md": _RESULTS.replace(
            "Judging on 12 March.", "Judging moved to 19 March, the judge is ill.")}),
                NOOP, "the judging is postponed; there are no placings yet"),
        Variant("street retold", Change(append={"photo/club-results.md": (
            "\nNote: Sam's 'Bus stop, Hull' (2nd in Street) goes forward to the regional print battle.\n")}),
                NOOP, "about Sam's earlier Street placing; Reflections is still to be judged"),
    ])

_LOTS = ("# Auction watch (Marlow Numismatic online sale)\n\n## Lot 212: 1887 Jubilee sovereign, EF\n"
         "high bidder: coinmarsh\ncurrent bid: £410\nends: Sun 15 Mar 20:00\n\n"
         "## Lot 219: 1970 proof set, boxed\nhigh bidder: coinmarsh\ncurrent bid: £12\nends: Sun 15 Mar 20:06\n")
SITUATIONS += family(
    "sovereign outbid", "tell me if I get outbid on the 1887 sovereign (collecting/auction-watch.md). my bidder name "
    "is coinmarsh",
    {**HOME, "collecting/auction-watch.md": _LOTS}, [
        Variant("outbid", Change(write={"collecting/auction-watch.md": _LOTS.replace(
            "high bidder: coinmarsh\ncurrent bid: £410", "high bidder: jmb_numis\ncurrent bid: £425")}),
                ACT, "someone else, jmb_numis, is now the high bidder on the sovereign at £425: tell them"),
        Variant("sniped at the end", Change(write={"collecting/auction-watch.md": _LOTS.replace(
            "high bidder: coinmarsh\ncurrent bid: £410\nends: Sun 15 Mar 20:00",
            "ENDED: sold to sovcollector77 for £455 (bid placed 19:59:58)")}),
                ACT, "they were outbid in the last seconds and the sovereign went to someone else: tell them"),
        Variant("raised own bid", Change(write={"collecting/auction-watch.md": _LOTS.replace(
            "current bid: £410", "current bid: £430 (my max raised to £500)")}),
                NOOP, "they raised their own bid and are still the high bidder"),
        Variant("proof set outbid", Change(write={"collecting/auction-watch.md": _LOTS.replace(
            "high bidder: coinmarsh\ncurrent bid: £12", "high bidder: penny_lane\ncurrent bid: £15")}),
                NOOP, "they were outbid on the proof set, not the sovereign"),
        Variant("won", Change(write={"collecting/auction-watch.md": _LOTS.replace(
            "high bidder: coinmarsh\ncurrent bid: £410\nends: Sun 15 Mar 20:00", "ENDED: won by coinmarsh for £410")}),
                NOOP, "they won the sovereign; nobody outbid them"),
    ])

_WANTS = ("# Stamp wants (GB, used)\n\n- 1841 1d red, plate 12, four margins\n- 1883 2s6d lilac\n"
          "- 1913 Seahorse 5s rose-carmine\n- 1924 Wembley 1d, 1½d pair\n\nBudget this quarter: £80\n")
SITUATIONS += family(
    "harrow price list", "when Harrow Philatelics' new price list comes in (mail/), check it against my wants in "
    "stamps/wants.md and draft an order for what's on it within my budget",
    {**HOME, "stamps/wants.md": _WANTS}, [
        Variant("spring list", Change(write={"mail/2026-04-03-harrow.txt": _mail(
            "Harrow Philatelics <lists@harrowphil.example>", "Spring price list, GB 1840-1936",
            "1841 1d red, plate 12, four margins, fine used: £14\n1883 2s6d lilac, light cancel: £65\n"
            "1913 Seahorse 5s, heavy cancel: £95\n1924 Wembley pair, fine used: £6\n"
            "Postage 2 pounds on all orders.")}),
                ESCALATE, "the new list is in: match it against the wants and draft an order within £80"),
        Variant("clearance list", Change(write={"mail/2026-04-03-harrow.txt": _mail(
            "Harrow Philatelics <lists@harrowphil.example>", "Clearance list: GB Victorian to George V",
            "All at half price until 30 April: 1841 1d red, plate 12, four margins, £8; 1883 2s6d lilac, "
            "thinned, £22; 1924 Wembley pair, £3.")}),
                ESCALATE, "a new Harrow list with several wanted stamps: check the wants and draft the order"),
        Variant("invoice", Change(write={"mail/2026-04-03-harrow.txt": _mail(
            "Harrow Philatelics <accounts@harrowphil.example>", "Invoice H-3392",
            "Thank you for your order of 2 March: 1924 Wembley 1d, £3. Paid in full.")}),
                NOOP, "an invoice for an old order, not the new price list"),
        Variant("list delayed", Change(write={"mail/2026-04-03-harrow.txt": _mail(
            "Harrow Philatelics <lists@harrowphil.example>", "Spring list",
            "Our spring list is a little late this year and will be out in early May.")}),
                NOOP, "the list is delayed to May; it has not arrived"),
        Variant("other dealer", Change(write={"mail/2026-04-03-bexley.txt": _mail(
            "Bexley Stamps <shop@bexleystamps.example>", "April list",
            "This month: 1841 1d red, plate 12, four margins, £16; Seahorse 5s, £88.")}),
                NOOP, "a price list from Bexley Stamps, not Harrow Philatelics"),
    ])

_PARTS = ("# BSA A10 top end rebuild - parts\n\n| part | supplier | status |\n|---|---|---|\n"
          "| pistons and rings +0.020 | Draganfly | arrived 3 Mar |\n| head gasket set | Draganfly | arrived 3 Mar |\n"
          "| exhaust valves x2 | SRM | arrived 6 Mar |\n| valve guides x4 | SRM | on order |\n"
          "| pushrod tube seals | Burton Bike Bits | dispatched 9 Mar |\n\n## Gearbox (later)\n\n"
          "| part | supplier | status |\n|---|---|---|\n| layshaft bearing | Burton Bike Bits | on order |\n")
SITUATIONS += family(
    "bsa top end", "let me know when everything for the BSA's top end rebuild has arrived (garage/bsa-parts.md)",
    {**HOME, "garage/bsa-parts.md": _PARTS}, [
        Variant("all arrived", Change(write={"garage/bsa-parts.md": _PARTS.replace(
            "| valve guides x4 | SRM | on order |", "| valve guides x4 | SRM | arrived 12 Mar |").replace(
            "| Burton Bike Bits | dispatched 9 Mar |", "| Burton Bike Bits | arrived 11 Mar |")}),
                ACT, "the guides and the seals have arrived, so every top end part is in: tell them"),
        Variant("guides still out", Change(write={"garage/bsa-parts.md": _PARTS.replace(
            "| Burton Bike Bits | dispatched 9 Mar |", "| Burton Bike Bits | arrived 11 Mar |")}),
                NOOP, "the seals arrived but the valve guides are still on order"),
        Variant("guides dispatched", Change(write={"garage/bsa-parts.md": _PARTS.replace(
            "| valve guides x4 | SRM | on order |", "| valve guides x4 | SRM | dispatched 12 Mar |").replace(
            "| Burton Bike Bits | dispatched 9 Mar |", "| Burton Bike Bits | arrived 11 Mar |")}),
                NOOP, "the valve guides are dispatched, not arrived"),
        Variant("gearbox bearing", Change(write={"garage/bsa-parts.md": _PARTS.replace(
            "| layshaft bearing | Burton Bike Bits | on order |", "| layshaft bearing | Burton Bike Bits | arrived "
            "11 Mar |")}),
                NOOP, "the part that arrived is for the gearbox; two top end parts are still outstanding"),
    ])

_PRINTS = ("2026-04-02 19:10 job start: phone_stand_v3.gcode (PETG, est 3h12m)\n"
           "2026-04-02 22:25 job done: phone_stand_v3.gcode\n"
           "2026-04-03 18:02 job start: drawer_clip_x8.gcode (PLA, est 1h40m)\n"
           "2026-04-03 19:44 job done: drawer_clip_x8.gcode\n")
SITUATIONS += family(
    "failed print", "if a print fails on the Prusa, go through ops/logs/printer.log and my slicer notes "
    "(making/slicer-notes.md) and work out what probably went wrong",
    {**HOME, "ops/logs/printer.log": _PRINTS,
     "making/slicer-notes.md": "- PETG: 240/80, 0.2 mm layers, no cooling first 3 layers\n"
                               "- PLA: 215/60\n- bed: textured sheet, wiped with IPA before each print\n"}, [
        Variant("layer shift", Change(append={"ops/logs/printer.log": (
            "2026-04-04 10:05 job start: lamp_shade.gcode (PETG, est 6h05m)\n"
            "2026-04-04 11:47 job stopped: crash detected at layer 212, layer shift on X\n")}),
                ESCALATE, "the lamp shade print stopped on a crash and layer shift: investigate the cause"),
        Variant("came off the bed", Change(append={"ops/logs/printer.log": (
            "2026-04-04 10:05 job start: cable_tidy.gcode (PLA, est 2h20m)\n"
            "2026-04-04 10:51 job stopped: print detached from the bed at 31%\n")}),
                ESCALATE, "a print detached from the bed and stopped: work out why from the log and the notes"),
        Variant("runout resumed", Change(append={"ops/logs/printer.log": (
            "2026-04-04 10:05 job start: lamp_shade.gcode (PETG, est 6h05m)\n"
            "2026-04-04 13:30 paused: filament runout\n2026-04-04 13:41 resumed\n"
            "2026-04-04 16:22 job done: lamp_shade.gcode\n")}),
                NOOP, "the print paused for a new spool, resumed and finished; it did not fail"),
        Variant("failed in the name", Change(append={"ops/logs/printer.log": (
            "2026-04-04 10:05 job start: failed_hinge_retry.gcode (PLA, est 0h50m)\n"
            "2026-04-04 10:58 job done: failed_hinge_retry.gcode\n")}),
                NOOP, "'failed' is part of a file name; that print finished"),
        Variant("cancelled by me", Change(append={"ops/logs/printer.log": (
            "2026-04-04 10:05 job start: lamp_shade.gcode (PETG, est 6h05m)\n"
            "2026-04-04 10:09 job cancelled by user (wrong colour loaded)\n")}),
                NOOP, "they cancelled the job themselves over the colour; the print did not fail"),
    ])

_MEMBERS = ("# Kettleby MRC members\n\n- Roy (van, can drive the layout)\n- Denise (Sat only)\n- Imran\n"
            "- Bob (not Sundays)\n- Chloe and her dad Keith\n")
SITUATIONS += family(
    "bramley show", "once the Bramley show confirms a place for our layout Kettleby Junction, plan how we get it "
    "there and draw up an operating rota from club/members.md",
    {**HOME, "club/members.md": _MEMBERS,
     "club/layout.md": "Kettleby Junction, OO gauge, 5 boards of 1.2 m x 0.6 m, needs 7 m x 3 m with the fiddle "
                       "yard. Two operators at a time, three is better.\n"}, [
        Variant("confirmed", Change(write={"mail/2026-06-10-bramley.txt": _mail(
            "Bramley Model Railway Exhibition <exhibitions@bramleymrs.example>", "Kettleby Junction: you're in!",
            "We're delighted to offer Kettleby Junction a place at the show on 14-15 November, stand 22. Set-up "
            "is from 4pm on Friday 13th; the hall is open to the public 10-5 both days.")}),
                ESCALATE, "the place is confirmed: plan the transport and draw up the rota from the members"),
        Variant("confirmed smaller stand", Change(write={"mail/2026-06-10-bramley.txt": _mail(
            "Bramley Model Railway Exhibition <exhibitions@bramleymrs.example>", "Kettleby Junction",
            "Happy to confirm Kettleby Junction for 14-15 November. We can only give you 6 m x 3 m, so the fiddle "
            "yard may need to go round the back. Set-up Friday from 4pm.")}),
                ESCALATE, "confirmed, with a tighter space: plan the transport and the rota"),
        Variant("reserve list", Change(write={"mail/2026-06-10-bramley.txt": _mail(
            "Bramley Model Railway Exhibition <exhibitions@bramleymrs.example>", "Your layout application",
            "The November show is full, but Kettleby Junction is first on our reserve list. We'll be in touch if a "
            "space comes free.")}),
                NOOP, "the layout is on the reserve list; no place is confirmed"),
        Variant("photos wanted", Change(write={"mail/2026-06-10-bramley.txt": _mail(
            "Bramley Model Railway Exhibition <exhibitions@bramleymrs.example>", "Kettleby Junction - photos?",
            "Could you send a few photos and the exact footprint? The committee chooses the layouts on 30 June.")}),
                NOOP, "the show asks for photos before choosing; nothing is confirmed yet"),
    ])

_SAMPLER = ("# Sampler quilt (12 blocks)\n\n- [x] log cabin\n- [x] flying geese\n- [ ] churn dash\n"
            "- [ ] bear's paw\n- [ ] drunkard's path\n- [ ] Ohio star\n")
SITUATIONS += family(
    "sampler blocks", "every time I tell you I've finished a block for my sampler quilt, tick it off in "
    "quilting/sampler.md",
    {**HOME, "quilting/sampler.md": _SAMPLER}, [
        Variant("churn dash", Change(memories=(
            "Finished the churn dash block for the sampler last night, and the points actually match!",)),
                ACT, "the churn dash block is finished: tick it off"),
        Variant("ohio star", Change(memories=("Ohio star block done at quilting group this afternoon.",)),
                ACT, "the Ohio star block is finished: tick it off"),
        Variant("pieces cut", Change(memories=(
            "Cut all the pieces for bear's paw tonight, will sew them on Thursday.",)),
                NOOP, "bear's paw is only cut out, not finished"),
        Variant("charity quilt", Change(memories=(
            "Finished a log cabin block for the group's charity quilt, it goes to the hospice in May.",)),
                NOOP, "the block is for the charity quilt, not their sampler"),
        Variant("unpicked", Change(memories=(
            "Unpicked the drunkard's path again. Curves are hard.",)),
                NOOP, "the drunkard's path is unpicked again, not finished"),
    ])

_LEAGUE = ("# Dice & Slice league, spring\n\n| # | player | played | points |\n|---|---|---|---|\n"
           "| 1 | Marcus | 9 | 24 |\n| 2 | Priya | 9 | 21 |\n| 3 | Hollie | 8 | 19 |\n| 4 | Jon | 9 | 17 |\n"
           "| 5 | Ade | 8 | 15 |\n| 6 | Kerry | 9 | 12 |\n\nTop four go to finals night.\n")
SITUATIONS += family(
    "top four", "I'm Priya. tell me if I drop out of the top four in the Dice & Slice league (games/league.md)",
    {**HOME, "games/league.md": _LEAGUE}, [
        Variant("fifth", Change(write={"games/league.md": (
            "# Dice & Slice league, spring\n\n| # | player | played | points |\n|---|---|---|---|\n"
            "| 1 | Marcus | 11 | 27 |\n| 2 | Hollie | 10 | 25 |\n| 3 | Ade | 10 | 23 |\n| 4 | Jon | 11 | 22 |\n"
            "| 5 | Priya | 11 | 21 |\n| 6 | Kerry | 11 | 15 |\n\nTop four go to finals night.\n")}),
                ACT, "Priya is now fifth, out of the top four: tell her"),
        Variant("third", Change(write={"games/league.md": _LEAGUE.replace(
            "| 2 | Priya | 9 | 21 |\n| 3 | Hollie | 8 | 19 |", "| 2 | Hollie | 9 | 22 |\n| 3 | Priya | 10 | 21 |")}),
                NOOP, "Priya slips from second to third but is still in the top four"),
        Variant("jon drops", Change(write={"games/league.md": _LEAGUE.replace(
            "| 4 | Jon | 9 | 17 |\n| 5 | Ade | 8 | 15 |", "| 4 | Ade | 9 | 18 |\n| 5 | Jon | 10 | 17 |")}),
                NOOP, "Jon drops to fifth; Priya is still second"),
        Variant("fixtures added", Change(append={"games/league.md": (
            "\nNext week: Priya v Marcus (Wingspan), Hollie v Ade (Cascadia).\n")}),
                NOOP, "only next week's fixtures; the table is unchanged"),
    ], bystanders=("let me know when the café posts the date of the Catan tournament",))

_WOODWORK = ("# Woodwork class (Thursdays, Graham)\n\n- wk 4: cut the tails, too tight, pared back.\n"
             "- wk 5: pins cut, dry fit OK apart from one corner.\n- wk 6: glued up, Graham applied first coat "
             "of oil.\n")
SITUATIONS += family(
    "dovetail box", "tell me when Graham says my dovetail box is ready to collect from the workshop "
    "(woodwork/class-notes.md)",
    {**HOME, "woodwork/class-notes.md": _WOODWORK}, [
        Variant("chopping boards ready", Change(append={"woodwork/class-notes.md": (
            "- Graham's message: the chopping boards from week 2 are ready to collect. The boxes need one more "
            "coat.\n")}),
                NOOP, "the chopping boards are ready; the box still needs another coat"),
        Variant("ready next week", Change(append={"woodwork/class-notes.md": (
            "- Graham's message: boxes will be ready to collect next Thursday, once the oil has cured.\n")}),
                NOOP, "the box will be ready next week; it is not ready yet"),
        Variant("lorna's box", Change(append={"woodwork/class-notes.md": (
            "- Graham's message: Lorna's dovetail box is ready, she's picking it up on Saturday.\n")}),
                NOOP, "it is Lorna's box that is ready, not theirs"),
        Variant("ready for a second coat", Change(append={"woodwork/class-notes.md": (
            "- wk 7: Graham says my box is ready for its second coat of oil, doing that next week.\n")}),
                NOOP, "the box is ready for more oil, not ready to collect"),
    ])

_PROGRAMME = ("# Christmas concert, Sat 12 Dec, St Mary's - DRAFT, may still change\n\n"
              "1. Once in Royal David's City\n2. Rutter: Candlelight Carol\n3. Gjeilo: Northern Lights\n"
              "4. In the Bleak Midwinter (Darke)\n5. Chilcott: Shepherd's Carol\n6. Hark! The Herald\n")
_FINAL = ("# Christmas concert, Sat 12 Dec, St Mary's - FINAL (agreed by the committee 3 Nov)\n\n"
          "1. Once in Royal David's City\n2. Rutter: Candlelight Carol\n3. Gjeilo: Northern Lights\n"
          "4. In the Bleak Midwinter (Darke)\n5. Chilcott: Shepherd's Carol\n6. Warlock: Bethlehem Down\n"
          "7. Hark! The Herald\n")
SITUATIONS += family(
    "concert programme", "when the christmas concert programme is final (choir/programme.md), make me a practice "
    "plan for the pieces I haven't sung before. the ones I know are in choir/repertoire.md",
    {**HOME, "choir/programme.md": _PROGRAMME,
     "choir/repertoire.md": "Sung before: Once in Royal David's City, In the Bleak Midwinter (Darke), Hark! The "
                            "Herald, Rutter: Candlelight Carol\n"}, [
        Variant("final", Change(write={"choir/programme.md": _FINAL}),
                ESCALATE, "the programme is final: plan practice for the pieces not in the repertoire"),
        Variant("draft swap", Change(write={"choir/programme.md": _PROGRAMME.replace(
            "5. Chilcott: Shepherd's Carol", "5. Warlock: Bethlehem Down")}),
                NOOP, "one piece is swapped but the programme is still a draft"),
        Variant("summer final elsewhere", Change(write={"choir/summer-programme.md": (
            "# Summer concert, 4 July - FINAL\n\n1. Parry: I Was Glad\n2. Fauré: Cantique de Jean Racine\n")}),
                NOOP, "a final programme for another concert, in another file"),
        Variant("final rehearsal", Change(append={"choir/programme.md": (
            "\nFinal rehearsal: Thu 10 Dec, 7pm, in the church.\n")}),
                NOOP, "'final' is the last rehearsal; the programme itself is still a draft"),
    ])

_BIRDS = ("# 2026 year list\n\n1. blackbird\n2. robin\n3. blue tit\n4. great tit\n5. wren\n6. chaffinch\n"
          "7. buzzard\n8. red kite\n9. grey heron\n10. little egret\n11. kingfisher\n12. goldcrest\n13. redwing\n")
SITUATIONS += family(
    "year list", "whenever I tell you I've seen a new species for my 2026 year list, add it to birds/year-list.md",
    {**HOME, "birds/year-list.md": _BIRDS}, [
        Variant("brambling", Change(memories=(
            "Brambling on the feeders at Whisby this morning, in with the chaffinches!",)),
                ACT, "a brambling is not on the list yet: add it"),
        Variant("great white egret", Change(memories=(
            "Great white egret on the flooded field by the A46, huge next to the herons.",)),
                ACT, "the list has little egret, not great white egret: add the new species"),
        Variant("kingfisher again", Change(memories=(
            "Kingfisher at the lake again today, such a flash of blue.",)),
                NOOP, "kingfisher is already on the list"),
        Variant("hoping for waxwings", Change(memories=(
            "Waxwings reported in Lincoln, I'll try for them on Saturday.",)),
                NOOP, "they hope to see waxwings; they have not seen them"),
        Variant("dave's osprey", Change(memories=("Dave saw an osprey at Rutland today, lucky him.",)),
                NOOP, "Dave saw the osprey, not them"),
    ])

_MIRROR = ("# 8 inch f/6 mirror - Foucault tests\n\n| date | after | PV error (waves) |\n|---|---|---|\n"
           "| 2026-01-18 | fine grinding, first polish | 0.31 |\n| 2026-02-01 | 6 h polishing | 0.21 |\n"
           "| 2026-02-15 | parabolising, 3 sessions | 0.16 |\n")
SITUATIONS += family(
    "mirror figure", "tell me when the mirror's PV error gets under 1/8 wave (astro/mirror-tests.md)",
    {**HOME, "astro/mirror-tests.md": _MIRROR}, [
        Variant("0.11", Change(append={"astro/mirror-tests.md": "| 2026-03-01 | parabolising, 5 sessions | 0.11 |\n"}),
                ACT, "0.11 waves is under 1/8 (0.125): tell them"),
        Variant("exactly an eighth", Change(append={"astro/mirror-tests.md": (
            "| 2026-03-01 | parabolising, 5 sessions | 0.125 |\n")}),
                NOOP, "0.125 waves is exactly 1/8, not under it"),
        Variant("should be", Change(append={"astro/mirror-tests.md": (
            "\nTonight: 40 more minutes of parabolising, should be about 0.10 now. Test tomorrow once it has "
            "cooled.\n")}),
                NOOP, "an expectation before testing, not a measured figure"),
        Variant("nanometres", Change(append={"astro/mirror-tests.md": (
            "| 2026-03-01 | Bath interferometer check, laser 532 nm | PV 75 nm |\n")}),
                NOOP, "75 nm at 532 nm is about 0.14 waves, still over 1/8"),
        Variant("diagonal flat", Change(append={"astro/mirror-tests.md": (
            "\nThe secondary (diagonal flat) arrived, certified 1/10 wave.\n")}),
                NOOP, "1/10 wave is the bought diagonal's figure, not the main mirror's"),
    ])

_TMA = ("# TMA04 (due 18 May)\n\nPart 1: 800 words on a case study of your choice.\nPart 2: reflect on your "
        "feedback so far and how you have used it.\n")
SITUATIONS += family(
    "tma03 feedback", "when my tutor's feedback on TMA03 arrives, go through it and make me a plan for TMA04 based "
    "on what she says (study/, the question is in study/tma04-question.md)",
    {**HOME, "study/tma04-question.md": _TMA,
     "study/tma02-feedback.md": "TMA02: 68. Good use of sources; structure wanders in part 2.\n"}, [
        Variant("feedback file", Change(write={"study/tma03-feedback.md": (
            "TMA03: 71. Much clearer structure than TMA02. Your case study needs more than one source, and the "
            "conclusion repeats the introduction. Watch the word count: part 1 was 140 words over.\n")}),
                ESCALATE, "the feedback is in: work through it and plan TMA04 around it"),
        Variant("feedback by mail", Change(write={"mail/2026-04-22-tutor.txt": _mail(
            "Dr Nadia Okonjo (tutor) <n.okonjo@open.example>", "Your TMA03 feedback",
            "Hi, your TMA03 is marked: 71. Strong structure this time; bring in a second source for the case "
            "study and don't let the conclusion repeat the introduction.")}),
                ESCALATE, "the tutor's feedback on TMA03 arrived by mail: plan TMA04 from it"),
        Variant("mark only", Change(write={"study/marks.md": "TMA01 64, TMA02 68, TMA03 71 (feedback to follow)\n"}),
                NOOP, "only the mark is in; the feedback is still to follow"),
        Variant("tutor marking", Change(write={"mail/2026-04-15-tutor.txt": _mail(
            "Dr Nadia Okonjo (tutor) <n.okonjo@open.example>", "TMA03",
            "Just to say I'm marking this week, you should have your feedback by the 24th.")}),
                NOOP, "the tutor says the feedback comes later"),
        Variant("tma02 note", Change(append={"study/tma02-feedback.md": (
            "Note to self: re-read this before starting TMA04.\n")}),
                NOOP, "a note on the old TMA02 feedback; nothing new from the tutor"),
    ])

_HIVES = ("# Inspections\n\n- 25 Apr, hive 1: queen seen, 6 frames of brood, calm.\n"
          "- 25 Apr, hive 2: eggs seen, 7 frames of brood, drones about. Added a super.\n"
          "- 2 May, hive 1: all fine, stores good.\n- 2 May, hive 2: busy, super half drawn.\n")
SITUATIONS += family(
    "queen cells", "warn me if my inspection notes mention queen cells in hive 2 (bees/inspections.md), it'll be "
    "getting ready to swarm",
    {**HOME, "bees/inspections.md": _HIVES}, [
        Variant("sealed cells", Change(append={"bees/inspections.md": (
            "- 9 May, hive 2: five sealed queen cells along the bottom bars, lots of drones.\n")}),
                ACT, "hive 2 has sealed queen cells: warn them"),
        Variant("charged cells", Change(append={"bees/inspections.md": (
            "- 9 May, hive 2: two queen cells with larvae in on frame 6, brood packed in.\n")}),
                ACT, "queen cells with larvae in hive 2: warn them"),
        Variant("hive 1 cells", Change(append={"bees/inspections.md": (
            "- 9 May, hive 1: three queen cells on frame 4.\n- 9 May, hive 2: calm, no cells.\n")}),
                NOOP, "the queen cells are in hive 1; hive 2 has none"),
        Variant("none found", Change(append={"bees/inspections.md": (
            "- 9 May, hive 2: looked hard for queen cells, none. Queen seen, laying well.\n")}),
                NOOP, "the note says no queen cells were found in hive 2"),
        Variant("last year retold", Change(append={"bees/inspections.md": (
            "- 9 May, hive 2: calm, 8 frames of brood. Reminded me of last May, when they built queen cells "
            "and swarmed into the hedge.\n")}),
                NOOP, "the queen cells are last year's, retold; today's check found nothing of the kind"),
    ])

_WATER = ("# Water tests\n\n| date | tank | ammonia (ppm) | nitrite (ppm) | nitrate (ppm) |\n|---|---|---|---|---|\n"
          "| 2026-05-02 | shrimp | 0 | 0 | 10 |\n| 2026-05-02 | community | 0 | 0 | 20 |\n"
          "| 2026-05-09 | shrimp | 0 | 0 | 10 |\n")
SITUATIONS += family(
    "shrimp ammonia", "warn me if the ammonia in the shrimp tank reads above zero (aquarium/water-tests.md)",
    {**HOME, "aquarium/water-tests.md": _WATER}, [
        Variant("0.25", Change(append={"aquarium/water-tests.md": "| 2026-05-16 | shrimp | 0.25 | 0 | 15 |\n"}),
                ACT, "the shrimp tank reads 0.25 ppm ammonia, above zero: warn them"),
        Variant("0.5 after a death", Change(append={"aquarium/water-tests.md": (
            "| 2026-05-16 | shrimp | 0.5 | 0.25 | 15 |\n\nFound a dead snail behind the wood, took it out.\n")}),
                ACT, "the shrimp tank reads 0.5 ppm ammonia: warn them"),
        Variant("nitrate up", Change(append={"aquarium/water-tests.md": "| 2026-05-16 | shrimp | 0 | 0 | 40 |\n"}),
                NOOP, "the nitrate rose; ammonia in the shrimp tank is still 0"),
        Variant("community tank", Change(append={"aquarium/water-tests.md": (
            "| 2026-05-16 | community | 0.5 | 0 | 25 |\n")}),
                NOOP, "the ammonia is in the community tank, not the shrimp tank"),
        Variant("tap water", Change(append={"aquarium/water-tests.md": (
            "| 2026-05-16 | tap water, before conditioner | 0.5 | 0 | 5 |\n")}),
                NOOP, "the reading is of the tap water, not the shrimp tank"),
    ])

_PEAL = ("# Quarter peal, Sunday 19 April, 2pm, St Wilfrid's - Plain Bob Doubles\n\n"
         "- treble: Anne (confirmed)\n- 2: Mike (confirmed)\n- 3: Sue (confirmed)\n- 4: Raj (confirmed)\n"
         "- 5: Bill (confirmed)\n- tenor (cover): Jean (confirmed)\n")
SITUATIONS += family(
    "quarter peal band", "tell me if fewer than six ringers are down for Sunday's quarter peal "
    "(bells/quarter-peal.md), then we'll have to call it off",
    {**HOME, "bells/quarter-peal.md": _PEAL}, [
        Variant("bill out", Change(write={"bells/quarter-peal.md": _PEAL.replace(
            "- 5: Bill (confirmed)", "- 5: Bill - can't make it, hospital appointment")}),
                ACT, "Bill has dropped out and no one replaces him: five ringers, fewer than six"),
        Variant("colin steps in", Change(write={"bells/quarter-peal.md": _PEAL.replace(
            "- 5: Bill (confirmed)", "- 5: Colin (confirmed, Bill can't make it)")}),
                NOOP, "Colin replaces Bill, so six ringers are still down"),
        Variant("jean at evensong", Change(append={"bells/quarter-peal.md": (
            "\nJean can't ring for evensong that evening, but she's fine for the quarter.\n")}),
                NOOP, "Jean misses evensong, not the quarter peal; six are still down"),
        Variant("mike may be late", Change(write={"bells/quarter-peal.md": _PEAL.replace(
            "- 2: Mike (confirmed)", "- 2: Mike (confirmed, might be a few minutes late, train)")}),
                NOOP, "Mike may be late but is still coming; six ringers"),
    ])

SITUATIONS += family(
    "japanese homework", "each time Sensei posts homework in learning/japanese/homework/, give me a one-line summary "
    "of it",
    {**HOME, "learning/japanese/homework/week-05.md": (
        "# Homework week 5\n\nWrite six sentences about your weekend using the past tense (-mashita).\n")}, [
        Variant("week 6", Change(write={"learning/japanese/homework/week-06.md": (
            "# Homework week 6\n\nLearn the 20 katakana on page 41 and write out the menu on page 43 in "
            "katakana. Quiz next lesson.\n")}),
                ACT, "new homework for week 6: summarise it in one line"),
        Variant("week 7", Change(write={"learning/japanese/homework/week-07.md": (
            "# Homework week 7\n\nRecord yourself introducing a family member (1 minute) and send it before "
            "Tuesday.\n")}),
                ACT, "new homework for week 7: summarise it"),
        Variant("week 5 corrected", Change(write={"learning/japanese/homework/week-05.md": (
            "# Homework week 5\n\nWrite six sentences about your weekend using the past tense (-mashita). "
            "Correction: five sentences is fine.\n")}),
                NOOP, "last week's homework got a correction; no new homework was posted"),
        Variant("class notes", Change(write={"learning/japanese/notes/week-06.md": (
            "# Class notes week 6\n\nCounters: -mai for flat things, -hon for long things.\n")}),
                NOOP, "class notes in the notes folder, not homework"),
    ])

_KESTREL = ("# Kestrel cardigan, size 3\n\n- back: done\n- fronts: done\n- yoke: up to row 22 of the chart\n"
            "- sleeves: not started\n")
SITUATIONS += family(
    "kestrel errata", "if the designer puts out errata for the Kestrel cardigan (knitting/kestrel/), work out from "
    "my progress in knitting/kestrel/progress.md what I'd have to rip back and redo",
    {**HOME, "knitting/kestrel/progress.md": _KESTREL}, [
        Variant("errata posted", Change(write={"knitting/kestrel/errata.md": (
            "# Kestrel errata (15 May)\n\n- Yoke chart, size 3, row 14: decrease 8 stitches, not 6.\n"
            "- Sleeves, all sizes: cast on 4 fewer stitches than printed.\n")}),
                ESCALATE, "errata are out: work out what the yoke change means for a yoke at row 22"),
        Variant("no errors", Change(write={"knitting/kestrel/designer-update.md": (
            "Several knitters asked: there are no known errors in Kestrel. The errata for my Merlin pullover are "
            "on the website.\n")}),
                NOOP, "the designer says Kestrel has no errors; the errata are for another pattern"),
        Variant("own mistake", Change(append={"knitting/kestrel/progress.md": (
            "\nThink I made an error around row 14, the count was off by two. Will check the chart tomorrow.\n")}),
                NOOP, "their own possible mistake, not errata from the designer"),
    ])

_MATCHES = ("# Record fair matches\n\n- Kind of Blue, 1976 reissue, VG+, £18 (stall 14)\n"
            "- Mingus Ah Um, 1980s UK press, VG, £22 (stall 6)\n")
SITUATIONS += family(
    "blue train", "let me know if a first pressing of Blue Train turns up for under £60 in the record fair matches "
    "(records/matches.md)",
    {**HOME, "records/matches.md": _MATCHES}, [
        Variant("reissue cheap", Change(append={"records/matches.md": (
            "- Blue Train, 1985 reissue, NM, £35 (stall 3)\n")}),
                NOOP, "a reissue of Blue Train, not a first pressing"),
        Variant("exactly 60", Change(append={"records/matches.md": (
            "- Blue Train, first pressing (ears, deep groove), poor, split seam, £60 (stall 9)\n")}),
                NOOP, "a first pressing at exactly £60, not under"),
        Variant("first pressing dear", Change(append={"records/matches.md": (
            "- Blue Train, first pressing, VG+, £340 (stall 1)\n")}),
                NOOP, "a first pressing, but at £340, well over £60"),
        Variant("moanin' cheap", Change(append={"records/matches.md": (
            "- Moanin', first pressing, VG, £55 (stall 9)\n")}),
                NOOP, "a cheap first pressing of another album"),
    ])

_COINS = ("date,coin,grade,paid_gbp,where\n2026-01-17,1920 florin,VF,6,Newark fair\n"
          "2026-02-21,1935 crown,EF,28,Newark fair\n")
SITUATIONS += family(
    "coins bought", "add every coin I tell you I've bought to collecting/coins.csv",
    {**HOME, "collecting/coins.csv": _COINS}, [
        Variant("florin", Change(memories=("Picked up an 1890 florin at the York fair for 22 pounds, nice and "
                                           "crisp.",)),
                ACT, "they bought an 1890 florin: add one line to the coins file"),
        Variant("proof set", Change(memories=("Got the 1970 proof set off eBay for 9 pounds in the end.",)),
                ACT, "they bought a proof set: add it"),
        Variant("too worn", Change(memories=(
            "Looked at a Victorian crown at the fair but it was too worn, so I left it.",)),
                NOOP, "they looked at the crown but did not buy it"),
        Variant("sold spare", Change(memories=("Sold my spare 1935 crown to Dave for 30 pounds.",)),
                NOOP, "a coin sold, not bought"),
    ])

SITUATIONS += family(
    "hop order", "when the hops I ordered from the Malt Miller arrive, plan the brew day for the pale ale using the "
    "recipe in brewing/pale-ale.md and what's left in brewing/stock.md",
    {**HOME, "brewing/pale-ale.md": "Pale ale, 20 l: 4.2 kg Maris Otter, 200 g crystal, Cascade 30 g at 60, "
                                    "Centennial 50 g at flameout, US-05.\n",
     "brewing/stock.md": "Stock: 5 kg Maris Otter, 150 g crystal, 1 x US-05, Star San.\n"}, [
        Variant("delivered", Change(write={"mail/2026-05-06-maltmiller.txt": _mail(
            "The Malt Miller <orders@maltmiller.example>", "Your order has been delivered",
            "Order MM-88213 was delivered at 11:02 and left in your porch: Cascade 100 g, Centennial 100 g.")}),
                ESCALATE, "the hops arrived: plan the brew day against the recipe and the stock, which is short of "
                          "crystal"),
        Variant("dispatched", Change(write={"mail/2026-05-04-maltmiller.txt": _mail(
            "The Malt Miller <orders@maltmiller.example>", "Your order is on its way",
            "Order MM-88213 has been dispatched and should reach you in 1-2 working days.")}),
                NOOP, "the hops are dispatched, not arrived"),
        Variant("newsletter", Change(write={"mail/2026-05-04-maltmiller.txt": _mail(
            "The Malt Miller <news@maltmiller.example>", "New season hops are in",
            "New season New Zealand hops have arrived in our warehouse: Nelson Sauvin, Motueka, Riwaka.")}),
                NOOP, "a newsletter about hops arriving at their warehouse, not their order"),
    ], bystanders=("tell me when the homebrew club posts the date of the summer competition",))
