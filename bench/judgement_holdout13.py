"""The held-out labelled set no. 13 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
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
    nothing,
    unrelated,
)
from bench.judgement_set import (
    mail as _mail,
)

SITUATIONS: list[Situation] = []


_VISITS = ("# Elmwood House: family visiting slots\n\n| resident | day | time | room |\n|---|---|---|---|\n"
           "| Frank Lister | Sunday | 14:00-15:30 | garden lounge |\n"
           "| Edna Moore | Sunday | 15:30-17:00 | garden lounge |\n"
           "| Stan Webb | Saturday | 11:00-12:00 | room 12 |\n")
SITUATIONS += family(
    "dad visiting slot", "Tell me if Dad's Sunday visiting slot at Elmwood gets moved. He's Frank Lister",
    {**HOME, "care/elmwood-visits.md": _VISITS}, [
        Variant("moved to saturday", Change(write={"care/elmwood-visits.md": _VISITS.replace(
            "| Frank Lister | Sunday | 14:00-15:30 |", "| Frank Lister | Saturday | 14:00-15:30 |")}),
            ACT, "Frank's slot moved from Sunday to Saturday: tell the user"),
        Variant("later time", Change(write={"care/elmwood-visits.md": _VISITS.replace(
            "| Frank Lister | Sunday | 14:00-15:30 |", "| Frank Lister | Sunday | 16:00-17:30 |")}),
            ACT, "Frank's Sunday slot now starts at 16:00 instead of 14:00: it was moved, tell the user"),
        Variant("other resident", Change(write={"care/elmwood-visits.md": _VISITS.replace(
            "| Edna Moore | Sunday | 15:30-17:00 |", "| Edna Moore | Monday | 15:30-17:00 |")}),
            NOOP, "Edna's slot moved, not Frank's"),
        Variant("room note", Change(append={"care/elmwood-visits.md": (
            "\nNote from the office: please sign in at reception and use the hand gel. Slots are unchanged.\n")}),
            NOOP, "a sign-in reminder; the office says the slots are unchanged"),
    ])
_BATTERIES = ("# Hearing aid batteries (size 312)\n\n| date | changed | packs left |\n|---|---|---|\n"
              "| 2 Mar | both | 4 |\n| 9 Mar | left | 4 |\n| 13 Mar | both | 3 |\n")
SITUATIONS += family(
    "hearing batteries", "remind me to order hearing aid batteries when I'm down to fewer than 2 packs",
    {**HOME, "health/hearing-batteries.md": _BATTERIES}, [
        Variant("one pack", Change(append={"health/hearing-batteries.md": "| 20 Mar | both | 1 |\n"}),
                ACT, "only 1 pack is left, fewer than 2: remind the user to order"),
        Variant("exactly two", Change(append={"health/hearing-batteries.md": "| 20 Mar | right | 2 |\n"}),
                NOOP, "2 packs are left, which is not fewer than 2"),
        Variant("last pack opened", Change(memories=(
            "Opened my very last pack of hearing aid batteries this morning, none spare in the drawer now.",)),
            ACT, "the user has no unopened packs left: remind them to order"),
        Variant("new delivery", Change(append={"health/hearing-batteries.md": (
            "| 21 Mar | none | 9 (six packs arrived from the audiology clinic) |\n")}),
            NOOP, "a delivery brought the stock up to 9 packs"),
    ])
_FOSTERS = ("# Second Chance Greyhounds: fosters\n\n| dog | foster | area | other pets | can take another? |\n"
            "|---|---|---|---|---|\n| Biscuit | the Nowaks | Ripon | none | no |\n"
            "| Marlowe | Gill Harte | Thirsk | cat (dog-tested ok) | yes, a calm one |\n"
            "| Sprite | the Okonjos | Knaresborough | none | yes, from June |\n"
            "| (empty) | Pete Saunders | Bedale | none | yes |\n")
SITUATIONS += family(
    "greyhound foster return", "If one of our foster homes says they can't keep their greyhound any more, work out "
    "which other foster could take the dog and why",
    {**HOME, "rescue/fosters.md": _FOSTERS}, [
        Variant("moving house", Change(write={"inbox/2026-05-06-nowak.txt": _mail(
            "Agata Nowak <agata.nowak@example.net>", "Biscuit",
            "I'm so sorry, we have to move into my mum's flat next month and they don't allow dogs. Can someone "
            "collect Biscuit by the 20th? He is a sweetheart but still nervous of men and loud traffic.")}),
            ESCALATE, "a foster must give Biscuit back: comparing the other homes for a match needs reasoning"),
        Variant("status flipped", Change(write={"rescue/fosters.md": _FOSTERS.replace(
            "| Sprite | the Okonjos | Knaresborough | none | yes, from June |",
            "| Sprite | the Okonjos | Knaresborough | none | RETURNING Sprite end of May (new baby) |")}),
            ESCALATE, "the Okonjos are handing Sprite back: work out which foster could take her"),
        Variant("settling in", Change(write={"inbox/2026-05-06-nowak.txt": _mail(
            "Agata Nowak <agata.nowak@example.net>", "Biscuit update",
            "Biscuit walked past the bin lorry today without shaking! He has claimed the sofa. Photos attached.")}),
            NOOP, "the foster is happy with Biscuit; nobody is giving a dog back"),
        Variant("might have to", Change(write={"inbox/2026-05-06-harte.txt": _mail(
            "Gill Harte <gill.harte@example.org>", "Marlowe and the landlord",
            "Just a heads-up: my new landlord is checking whether pets are allowed in the lease. It will probably "
            "be fine and I'll know next week. Marlowe is doing great.")}),
            NOOP, "the foster might have a problem and expects it to be fine; she has not said she can't keep him"),
    ])
_FUNRUN = ("# Hospice 5k fun run, 14 June\n\nTarget: 150 runners.\n\n| week | new sign-ups | total |\n"
           "|---|---|---|\n| 1 | 41 | 41 |\n| 2 | 38 | 79 |\n| 3 | 52 | 131 |\n")
SITUATIONS += family(
    "fun run 150", "Tell me when the fun run hits 150 sign-ups",
    {**HOME, "funrun/signups.md": _FUNRUN}, [
        Variant("passed", Change(append={"funrun/signups.md": "| 4 | 27 | 158 |\n"}),
                ACT, "the total is now 158, past 150: tell the user"),
        Variant("just short", Change(append={"funrun/signups.md": "| 4 | 16 | 147 |\n"}),
                NOOP, "the total is 147, still short of 150"),
        Variant("target restated", Change(append={"funrun/signups.md": (
            "\nReminder for the committee: we still need 150 runners to cover the road closure costs.\n")}),
                NOOP, "the target of 150 is only repeated; the total is still 131"),
        Variant("said aloud", Change(memories=(
            "Checked the entry site at lunch: 152 people signed up for the hospice 5k now.",)),
                ACT, "the user saw 152 entries: the run has passed 150, tell them"),
        unrelated("notes/shopping.md", "- oat milk\n- bin bags\n- birthday card for Ola\n"),
    ], bystanders=("Let me know if the council refuses the road closure for the fun run",))
_GUESTS = ("# Teatime with Tess (Radio Wharfedale), Thursday 11 June\n\n| slot | guest | topic | status |\n"
           "|---|---|---|---|\n| 16:10 | Rev. Alan Pryce | summer fete | confirmed |\n"
           "| 16:30 | Dr Meena Shah | hay fever | confirmed |\n| 16:50 | Otley Silver Band | live set | confirmed |\n\n"
           "Reserves: Lorna Gale (beekeeper), Tim Wragg (allotments chair).\n")
SITUATIONS += family(
    "radio cancellation", "If a guest drops out of Thursday's show, draft a message asking one of the reserves to "
    "step in (radio/guests.md)",
    {**HOME, "radio/guests.md": _GUESTS}, [
        Variant("doctor pulls out", Change(write={"inbox/2026-06-10-shah.txt": _mail(
            "Dr Meena Shah <m.shah@example.nhs>", "Thursday",
            "Really sorry Tess, I've been put on the on-call rota for Thursday afternoon and can't get away. "
            "Could we try again in July?")}),
            ESCALATE, "a Thursday guest cancelled: choose a reserve and draft the ask"),
        Variant("status column", Change(write={"radio/guests.md": _GUESTS.replace(
            "| live set | confirmed |", "| live set | CANCELLED: minibus broken down |")}),
            ESCALATE, "the band is off Thursday's show: draft a message to a reserve"),
        Variant("confirms time", Change(write={"inbox/2026-06-10-pryce.txt": _mail(
            "Alan Pryce <vicar@stpeters.example>", "Re: Thursday",
            "All set for 16:10. I'll bring the raffle prize list to read out.")}),
            NOOP, "the vicar confirmed; nobody dropped out"),
        Variant("july guest", Change(write={"inbox/2026-06-10-ross.txt": _mail(
            "Ross Kemp <ross@wharfedale-cycles.example>", "9 July",
            "I'll have to pull out of the 9 July show, I'm afraid, the shop is short-staffed that week. "
            "Plenty of notice at least!")}),
            NOOP, "a guest for a show a month later pulled out, not one for this Thursday's show"),
    ])
_BELLS = ("# St Mary's, Thornby: practice rota\n\n| Wednesday | leading | notes |\n|---|---|---|\n"
          "| 6 May | Jean | Plain Bob Doubles, learners first half hour |\n| 13 May | Colin | Grandsire |\n"
          "| 20 May | Jean | quarter peal attempt after practice |\n")
SITUATIONS += family(
    "bell practice off", "let me know if a Wednesday practice at the tower gets cancelled",
    {**HOME, "bells/practice-rota.md": _BELLS}, [
        Variant("tower closed", Change(write={"bells/practice-rota.md": _BELLS.replace(
            "| 13 May | Colin | Grandsire |", "| 13 May | - | NO PRACTICE: tower shut for the bell-frame survey |")}),
            ACT, "the 13 May practice is off: tell the user"),
        Variant("captain's mail", Change(write={"inbox/2026-05-15-jean.txt": _mail(
            "Jean Arkwright <jean.arkwright@example.org>", "Wednesday",
            "Sorry all, we won't be ringing on the 20th, the church has a funeral booked that evening and the "
            "vicar asked for quiet. Quarter peal moved to June.")}),
            ACT, "the tower captain says there is no ringing on 20 May: tell the user"),
        Variant("one ringer away", Change(write={"inbox/2026-05-11-colin.txt": _mail(
            "Colin Hebden <colin.h@example.net>", "13th",
            "I'm away on the 13th, so Jean will lead. Practice goes ahead as normal.")}),
            NOOP, "only the leader changes; the practice goes ahead"),
        Variant("maybe", Change(memories=(
            "Jean said after service that practice on the 20th might be short-handed if the Dixons are on holiday.",)),
            NOOP, "a practice that might be short of ringers is not cancelled"),
    ], bystanders=("Tell me when the new bell ropes for the tower are delivered",))
_RETURNS = ("order,customer,item,received,condition,status\n"
            "4402,L. Carver,oak bread board,2026-03-02,unopened,refunded\n"
            "4417,M. Osei,enamel teapot (blue),2026-03-03,unopened,awaiting refund\n")
SITUATIONS += family(
    "damaged returns", "When a return arrives damaged, work out whether we should refund, replace or claim from the "
    "courier, and draft the note to the customer",
    {**HOME, "shop/returns.csv": _RETURNS,
     "shop/policy.md": "# Returns policy\n30 days. Damaged in transit: we replace if in stock, else refund; "
                       "claim from the courier if the box was dented on arrival.\n"}, [
        Variant("cracked teapot", Change(append={"shop/returns.csv": (
            "4431,A. Brennan,enamel teapot (green),2026-03-05,chipped spout; outer box crushed,new\n")}),
            ESCALATE, "a return arrived chipped in a crushed box: weigh refund, replacement and courier claim"),
        Variant("warped board", Change(append={"shop/returns.csv": (
            "4438,P. Lindgren,walnut chopping board,2026-03-06,split along the grain (customer says it arrived "
            "like that),new\n")}),
            ESCALATE, "a damaged return: deciding the remedy and drafting the customer note needs reasoning"),
        Variant("change of mind", Change(append={"shop/returns.csv": (
            "4433,R. Duffy,linen apron,2026-03-05,unopened,new\n")}),
            NOOP, "the new return is unopened, not damaged"),
        Variant("refund paid", Change(write={"shop/returns.csv": _RETURNS.replace(
            "unopened,awaiting refund", "unopened,refunded")}),
            NOOP, "an existing undamaged return was refunded; no damaged return arrived"),
    ])
SITUATIONS += family(
    "return 4417", "Tell me when Mr Osei's teapot refund (order 4417) has gone through",
    {**HOME, "shop/returns.csv": _RETURNS}, [
        Variant("refunded", Change(write={"shop/returns.csv": _RETURNS.replace(
            "unopened,awaiting refund", "unopened,refunded 2026-03-07")}),
            ACT, "order 4417 now shows refunded: tell the user"),
        Variant("payment mail", Change(write={"inbox/2026-03-07-payments.txt": _mail(
            "ShopPay <payouts@shoppay.example>", "Refund processed",
            "Refund of 34.00 GBP to M. Osei for order #4417 was processed successfully on 7 March.")}),
            ACT, "the payment provider processed the 4417 refund: tell the user"),
        Variant("other order", Change(append={"shop/returns.csv": "4425,J. Pike,tea towels x2,2026-03-06,unopened,"
                                                                  "refunded\n"}),
            NOOP, "a different order was refunded; 4417 is still awaiting its refund"),
        Variant("queued", Change(write={"inbox/2026-03-07-payments.txt": _mail(
            "ShopPay <payouts@shoppay.example>", "Refund scheduled",
            "Your refund for order #4417 is scheduled and will be sent in the next payout run on 10 March.")}),
            NOOP, "the refund is only scheduled for 10 March; it has not gone through"),
    ])
_CLINIC = ("# Tuesday legal aid clinic (no interpreters available)\n\n| time | client | issue | language |\n"
           "|---|---|---|---|\n| 10:00 | D. Farrell | disrepair | English |\n"
           "| 10:40 | S. Yusuf | benefits appeal | English (fluent) |\n")
SITUATIONS += family(
    "clinic interpreter", "We've got no interpreters at the clinic, so warn me if someone books in who doesn't speak "
    "English well",
    {**HOME, "clinic/appointments.md": _CLINIC}, [
        Variant("romanian", Change(append={"clinic/appointments.md": (
            "| 11:20 | I. Popescu | eviction notice | Romanian, very little English |\n")}),
            ACT, "a client who speaks very little English has booked: warn the user"),
        Variant("booked by support worker", Change(write={"inbox/2026-04-20-hostel.txt": _mail(
            "Kay Morton <k.morton@eastgatehostel.example>", "Clinic booking for Tuesday",
            "I've booked Mr Haile into your 12:00 slot about his asylum support letter. He mostly speaks Tigrinya "
            "and gets lost when people talk fast in English.")}),
            ACT, "a booked client mainly speaks Tigrinya: warn the user"),
        Variant("english speaker", Change(append={"clinic/appointments.md": (
            "| 11:20 | R. Quinn | rent arrears | English |\n")}),
            NOOP, "the new client speaks English"),
        Variant("only enquired", Change(memories=(
            "A Farsi speaker phoned the clinic about a deposit dispute; she'll ring back if she wants to book.",)),
            NOOP, "she only enquired and has not booked in"),
    ])
SITUATIONS += family(
    "sportive results", "When the Dales Devil sportive results are up, compare our club riders' times with last "
    "year's and write a short piece for the club newsletter",
    {**HOME, "cycling/devil-2025.md": (
        "# Dales Devil 2025, long route (Airedale Wheelers)\n\n| rider | time |\n|---|---|\n"
        "| Chris Booth | 6:42 |\n| Hannah Rigg | 7:05 |\n| Sunil Patel | 7:58 |\n")}, [
        Variant("results posted", Change(write={"cycling/devil-2026.md": (
            "# Dales Devil 2026, long route (Airedale Wheelers)\n\n| rider | time |\n|---|---|\n"
            "| Chris Booth | 6:31 |\n| Hannah Rigg | 7:12 |\n| Sunil Patel | DNF (puncture at Buttertubs) |\n"
            "| Maya Fenwick | 7:40 |\n")}),
            ESCALATE, "the results are up: comparing each rider with last year and writing a piece needs work"),
        Variant("organiser mail", Change(write={"inbox/2026-06-23-devil.txt": _mail(
            "Dales Devil Events <results@dalesdevil.example>", "Your 2026 results",
            "Thank you for riding! Provisional times, Airedale Wheelers, long route: Booth 6:31, Rigg 7:12, "
            "Fenwick 7:40, Patel did not finish.")}),
            ESCALATE, "the organiser sent the club's times: compare with 2025 and write the piece"),
        Variant("results delayed", Change(write={"inbox/2026-06-22-devil.txt": _mail(
            "Dales Devil Events <results@dalesdevil.example>", "Results",
            "A timing mat failed at the Buttertubs checkpoint, so results will be published on Friday instead.")}),
            NOOP, "the results are delayed; none are up yet"),
        Variant("other event", Change(write={"cycling/ride-london.md": (
            "# RideLondon 2026\n\n| rider | time |\n|---|---|\n| Chris Booth | 4:55 |\n")}),
            NOOP, "these are results for a different event, not the Dales Devil"),
    ])
_HUT = ("# Beach hut 27, Southwold: bookings\n\n| from | to | who |\n|---|---|---|\n"
        "| 1 Aug | 7 Aug | Palmer family |\n| 8 Aug | 14 Aug | (free) |\n| 15 Aug | 21 Aug | Greaves |\n")
SITUATIONS += family(
    "beach hut bank holiday", "Tell me if anyone books beach hut 27 for the August bank holiday weekend",
    {**HOME, "hut/bookings.md": _HUT}, [
        Variant("booked", Change(append={"hut/bookings.md": "| 29 Aug | 31 Aug | Dr and Mrs Ito |\n"}),
                ACT, "29 to 31 August is the bank holiday weekend and it is booked: tell the user"),
        Variant("free week taken", Change(write={"hut/bookings.md": _HUT.replace(
            "| 8 Aug | 14 Aug | (free) |", "| 8 Aug | 14 Aug | Mbatha |")}),
                NOOP, "the week of 8 August was booked, not the bank holiday weekend"),
        Variant("enquiry", Change(write={"inbox/2026-07-02-hut.txt": _mail(
            "Sally Crewe <sally.crewe@example.com>", "Hut over bank holiday?",
            "Hi, is hut 27 still free over the August bank holiday? I'd need to check with my sister first.")}),
                NOOP, "an enquiry is not a booking"),
        nothing(),
    ])
SITUATIONS += family(
    "canal licence renewal", "When the renewal notice for Kestrel's canal licence comes, make me a checklist of "
    "what I need to sort out before it runs out",
    {**HOME, "boat/kestrel.md": (
        "# NB Kestrel\n\nLicence expires 31 July. Boat Safety certificate expires 14 July. Insurance with "
        "Towpath Mutual, renews 1 September. Home mooring: none (continuous cruiser).\n")}, [
        Variant("renewal notice", Change(write={"mail/2026-06-02-crt.txt": _mail(
            "Canal & River Trust <licensing@crt.example>", "Your boat licence renewal: Kestrel",
            "Your licence for Kestrel expires on 31 July. To renew, you will need a valid Boat Safety "
            "certificate, third-party insurance cover for the whole licence period, and a declaration of your "
            "cruising pattern. Renew online or call us.")}),
            ESCALATE, "the renewal notice arrived: checking it against the safety certificate and insurance dates "
                      "for a checklist needs reasoning"),
        Variant("stoppages bulletin", Change(write={"mail/2026-06-02-crt.txt": _mail(
            "Canal & River Trust <news@crt.example>", "Stoppages this month",
            "Lock 42 on the Leeds and Liverpool is closed 8-12 June for gate repairs. Plan your cruising "
            "accordingly.")}),
            NOOP, "a stoppages bulletin is not the licence renewal notice"),
        Variant("friend's boat", Change(memories=(
            "Mo on Wagtail got his licence renewal letter today and is panicking about his safety certificate.",)),
            NOOP, "it is Mo's boat's renewal notice, not Kestrel's"),
        unrelated("notes/recipes.md", "Flapjack: 250 g oats, 125 g butter, 125 g sugar, 3 tbsp golden syrup.\n"),
    ])
SITUATIONS += family(
    "piano tuner date", "Let me know as soon as the piano tuner confirms a date",
    {**HOME, "music/piano.md": "# Piano\nBlüthner upright, last tuned March last year. Tuner: Neil Oakes.\n",
     "inbox/2026-02-03-neil.txt": _mail("Neil Oakes <neil@oakespianos.example>", "Tuning",
                                        "Thanks for getting in touch. I'll check my diary and come back to you.")}, [
        Variant("confirmed", Change(write={"inbox/2026-02-09-neil.txt": _mail(
            "Neil Oakes <neil@oakespianos.example>", "Re: Tuning",
            "I can do Thursday 19 February at 10:30. It takes about an hour and a half. See you then.")}),
            ACT, "the tuner confirmed 19 February at 10:30: tell the user"),
        Variant("voicemail", Change(write={"phone/voicemail-2026-02-09.txt": (
            "Voicemail, 9 Feb, 11:02, from Neil Oakes: 'Hi, it's Neil about the piano. I've pencilled you in for "
            "Tuesday 3 March at two o'clock. Only ring back if that's no good.'\n")}),
            ACT, "a date with the tuner is booked for 3 March: tell the user"),
        Variant("booked up", Change(write={"inbox/2026-02-09-neil.txt": _mail(
            "Neil Oakes <neil@oakespianos.example>", "Re: Tuning",
            "I'm fully booked until the middle of March, I'm afraid. I'll get in touch when I have a gap.")}),
            NOOP, "the tuner has not given a date yet"),
        Variant("user's availability", Change(memories=(
            "Told the piano tuner any weekday afternoon works for us.",)),
            NOOP, "the user offered times; the tuner has not confirmed a date"),
    ])
_GLASS = ("# Leadlight orders\n\n| order | customer | design | size (cm) | due |\n|---|---|---|---|---|\n"
          "| G-114 | Mrs Achebe | tulip panel, front door | 45 x 70 | 30 May |\n"
          "| G-115 | The Crown Inn | sign, amber and green | 120 x 40 | 12 June |\n")
SITUATIONS += family(
    "glass order resized", "If a customer changes the size of their stained glass order, work out how much more "
    "glass and lead we'll need and whether the due date still works",
    {**HOME, "workshop/orders.md": _GLASS,
     "workshop/stock.md": "# Stock\n- amber cathedral glass: 0.4 m2\n- green streaky: 0.3 m2\n- lead came 6 mm: "
                          "14 m\n"}, [
        Variant("bigger panel", Change(write={"inbox/2026-05-04-achebe.txt": _mail(
            "Ngozi Achebe <ngozi.achebe@example.com>", "Door panel",
            "The joiner measured again and the opening is actually 55 x 80 cm, not 45 x 70. Sorry! Can you "
            "still do it for the end of May?")}),
            ESCALATE, "the order grew to 55 x 80 cm: working out materials and the timing needs reasoning"),
        Variant("table edited", Change(write={"workshop/orders.md": _GLASS.replace(
            "| 120 x 40 | 12 June |", "| 150 x 45 (pub widened the window) | 12 June |")}),
            ESCALATE, "the Crown Inn sign changed size: work out glass, lead and the due date"),
        Variant("colour only", Change(write={"inbox/2026-05-04-achebe.txt": _mail(
            "Ngozi Achebe <ngozi.achebe@example.com>", "Door panel",
            "Could the tulips be deep red rather than pink? Everything else as we agreed.")}),
            NOOP, "the customer changed a colour, not the size"),
        Variant("just asking", Change(write={"inbox/2026-05-04-crown.txt": _mail(
            "Dev at The Crown <dev@crowninn.example>", "Sign",
            "Out of interest, roughly what would a bigger sign cost? No change for now, we're happy with 120 x 40.")}),
            NOOP, "the pub only asked about a price and keeps the size as ordered"),
    ])
_BINS = ("# Marlow Court bin store: cleaning rota\n\n| week of | flat |\n|---|---|\n| 1 June | 2A |\n"
         "| 8 June | 3C |\n| 15 June | 1B |\n")
SITUATIONS += family(
    "bin store turn", "I'm in flat 4B. Tell me which week it is if I get put on the bin store cleaning rota "
    "(building/bin-rota.md)",
    {**HOME, "building/bin-rota.md": _BINS}, [
        Variant("my week", Change(append={"building/bin-rota.md": "| 22 June | 4B |\n| 29 June | 2C |\n"}),
                ACT, "flat 4B is on the rota for the week of 22 June: tell the user"),
        Variant("swap into", Change(write={"building/bin-rota.md": _BINS.replace(
            "| 15 June | 1B |", "| 15 June | 4B (swapped with 1B, who is away) |")}),
                ACT, "4B now has the week of 15 June after a swap: tell the user"),
        Variant("neighbour", Change(append={"building/bin-rota.md": "| 22 June | 4D |\n| 29 June | 3A |\n"}),
                NOOP, "the new weeks went to 4D and 3A, not 4B"),
        Variant("cleaning tips", Change(append={"building/bin-rota.md": (
            "\nPlease rinse the food caddy and hose the floor; the disinfectant is on the shelf by the door.\n")}),
                NOOP, "a cleaning tip; nobody new was put on the rota"),
        nothing(),
    ], system_tasks=True)
_DIGEST = ("# MGOC forum digest: for sale\n\n- Chrome rear bumper, MGB roadster 1970, some pitting, 85 GBP, "
           "collection Leek.\n- Wire wheels x4, 72 spoke, need truing, 200 GBP ono.\n")
SITUATIONS += family(
    "mgb carburettor", "Keep an eye out for anyone selling an SU HS4 carburettor for the MGB",
    {**HOME, "car/forum-digest.md": _DIGEST,
     "car/wanted.md": "# 1967 MGB GT: still to find\n- SU HS4 carburettor (pair ideally)\n- heater valve\n"}, [
        Variant("pair for sale", Change(append={"car/forum-digest.md": (
            "- Pair of SU HS4s off my '69 B, rebuilt last year, linkage included, 160 GBP posted.\n")}),
            ACT, "someone is selling HS4 carburettors: tell the user"),
        Variant("club member mail", Change(write={"mail/2026-04-12-derek.txt": _mail(
            "Derek Vine <derek.vine@example.net>", "Carb",
            "Heard you're after a carb for the GT. I've got a single HS4 sat on the shelf, yours for 60 quid.")}),
            ACT, "a club member offers an HS4: tell the user"),
        Variant("wanted ad", Change(append={"car/forum-digest.md": (
            "- WANTED: SU HS4 carbs for my Midget restoration, any condition considered.\n")}),
            NOOP, "someone else wants an HS4; nobody is selling one"),
        Variant("wrong model", Change(append={"car/forum-digest.md": (
            "- SU HS2 carburettor off a Sprite, good spindles, 45 GBP.\n")}),
            NOOP, "the carburettor for sale is an HS2, not an HS4"),
    ])
SITUATIONS += family(
    "governors papers", "When the clerk sends the papers for the next full governors' meeting, read the budget "
    "report and give me three sharp questions to ask",
    {**HOME, "governors/2026-03-minutes.md": (
        "# Full governing body, 10 March\nAgreed: new behaviour policy. Action: head to bring a revised budget "
        "with the staffing changes to the next meeting.\n")}, [
        Variant("papers sent", Change(write={"governors/2026-05-papers/budget.md": (
            "# Budget monitoring, month 1 (for FGB 19 May)\n\nIncome 2,412k. Staffing 1,986k (82 %, up from "
            "78 %). Supply cover overspent by 41k. Reserves forecast to fall from 118k to 36k by March. "
            "Proposal: do not replace the second TA in Year 4.\n"),
            "inbox/2026-05-12-clerk.txt": _mail(
                "Fiona Reid (clerk) <clerk@hillsideprimary.example>", "FGB 19 May: papers",
                "Dear governors, the agenda, last minutes and the budget report are attached and saved in the "
                "governors folder. Please send questions in advance.")}),
            ESCALATE, "the papers arrived: reading the budget report and forming questions needs reasoning"),
        Variant("papers to follow", Change(write={"inbox/2026-05-12-clerk.txt": _mail(
            "Fiona Reid (clerk) <clerk@hillsideprimary.example>", "FGB 19 May",
            "Dear governors, a reminder that we meet on 19 May at 6 pm. Papers will follow once the budget report "
            "is finalised.")}),
            NOOP, "the clerk only says the papers will follow"),
        Variant("committee papers", Change(write={"inbox/2026-05-12-clerk.txt": _mail(
            "Fiona Reid (clerk) <clerk@hillsideprimary.example>", "Premises committee papers",
            "For premises committee members only: the fire risk assessment and the roof survey for 14 May.")}),
            NOOP, "these are the premises committee's papers, not the full governors' meeting with its budget report"),
    ])
_PICK = ("# Riverside litter-pick, Saturday 10am\n\nMeet at the boathouse car park. Grabbers, bags and hi-vis "
         "provided. Bring gloves and water.\n")
SITUATIONS += family(
    "litter pick off", "If Saturday's litter-pick is called off, let me know",
    {**HOME, "community/litter-pick.md": _PICK}, [
        Variant("flood warning", Change(append={"community/litter-pick.md": (
            "\nUPDATE Friday 6pm: the river is over the towpath after today's rain. We're not going ahead "
            "tomorrow; new date to follow. - Bryony\n")}),
            ACT, "the organiser says Saturday's pick is not going ahead: tell the user"),
        Variant("meeting point moved", Change(append={"community/litter-pick.md": (
            "\nUPDATE: the car park is closed for resurfacing, so meet at the bandstand instead. Same time.\n")}),
            NOOP, "only the meeting point moved; the pick is still on"),
        Variant("weather worry", Change(memories=(
            "Bryony reckons Saturday's litter pick could be rained off if the forecast doesn't improve, she'll decide "
            "Friday night.",)),
            NOOP, "the pick might be called off but nothing has been decided"),
    ])
_TAKINGS = ("date,market,takings_gbp,notes\n2026-04-04,Hexham,312.50,\n2026-04-08,Corbridge,228.00,quiet\n"
            "2026-04-11,Hexham,295.20,\n")
SITUATIONS += family(
    "stall takings low", "warn me if a market day's takings in stall/takings.csv come in under 200",
    {**HOME, "stall/takings.csv": _TAKINGS}, [
        Variant("wet day", Change(append={"stall/takings.csv": "2026-04-15,Corbridge,164.80,rain all morning\n"}),
                ACT, "164.80 GBP is under 200: warn the user"),
        Variant("decent day", Change(append={"stall/takings.csv": "2026-04-15,Corbridge,241.10,\n"}),
                NOOP, "241.10 GBP is over 200"),
        Variant("pitch fee noted", Change(append={"stall/takings.csv": (
            "2026-04-18,Hexham,356.40,pitch fee up to 38 GBP from May\n")}),
                NOOP, "the day took 356.40 GBP; the 38 GBP in the note is the pitch fee, not the takings"),
    ], system_tasks=True)
_DOWNLOADS = ("# Pattern downloads by week\n\n| week of | Harebell Yoke | Tidewater Socks | Little Fern Hat |\n"
              "|---|---|---|---|\n| 2 Feb | 31 | 12 | 40 |\n| 9 Feb | 38 | 9 | 44 |\n")
SITUATIONS += family(
    "harebell downloads", "Tell me if the Harebell Yoke gets more than 50 downloads in a week",
    {**HOME, "shop/downloads.md": _DOWNLOADS}, [
        Variant("over fifty", Change(append={"shop/downloads.md": "| 16 Feb | 67 | 11 | 39 |\n"}),
                ACT, "67 downloads of the Harebell Yoke in a week, over 50: tell the user"),
        Variant("other pattern", Change(append={"shop/downloads.md": "| 16 Feb | 42 | 8 | 73 |\n"}),
                NOOP, "the Little Fern Hat went over 50; the Harebell Yoke had 42"),
        Variant("exactly fifty", Change(append={"shop/downloads.md": "| 16 Feb | 50 | 14 | 41 |\n"}),
                NOOP, "50 is not more than 50"),
    ])
SITUATIONS += family(
    "pattern mistake", "If a customer reports a mistake in one of my knitting patterns, check the pattern and draft "
    "a correction I can send to everyone who bought it",
    {**HOME, "patterns/tidewater-socks.md": (
        "# Tidewater Socks\n\nCast on 64 sts. Rib 15 rounds. Chart A (rounds 1-24), repeat twice. Heel flap over "
        "32 sts. Gusset: decrease to 60 sts.\n")}, [
        Variant("stitch count", Change(write={"inbox/2026-02-20-gwen.txt": _mail(
            "Gwen Parry <gwen.parry@example.co.uk>", "Tidewater Socks gusset",
            "Hello! I think there's an error: after the heel I have 64 stitches again, but the pattern says decrease "
            "to 60, and the foot chart only fits 64. Which one is right?")}),
            ESCALATE, "a customer reports a count error: checking the pattern and drafting a correction needs work"),
        Variant("review mentions", Change(write={"inbox/2026-02-21-etsy.txt": _mail(
            "Marketplace <notifications@market.example>", "New review: Tidewater Socks",
            "3 stars: 'Pretty pattern, but chart A round 17 shows a purl where the written line says knit. Had to "
            "rip back.'")}),
            ESCALATE, "a review points out a chart error: check it and draft the correction"),
        Variant("own mistake", Change(write={"inbox/2026-02-20-gwen.txt": _mail(
            "Gwen Parry <gwen.parry@example.co.uk>", "Ignore my last!",
            "I thought your pattern was wrong but I'd skipped a round of the rib. All sorted, loving them.")}),
            NOOP, "the customer found the mistake was her own; the pattern is fine"),
    ])
_GRANTS = ("# Ashby Parva parish council: small grants 2026\n\nApplications received: village hall curtains "
           "(800), 1st Ashby Scouts hut roof (2,400), playgroup outdoor toys (350).\nDecision at the June meeting.\n")
SITUATIONS += family(
    "scout roof grant", "When the parish council decides the grants, tell me whether the scout hut roof got anything",
    {**HOME, "parish/grants.md": _GRANTS}, [
        Variant("partly funded", Change(append={"parish/grants.md": (
            "\nDecided 9 June: village hall curtains 800; Scouts hut roof 1,500 (of 2,400 asked); playgroup "
            "350.\n")}),
            ACT, "the grants were decided and the scout roof got 1,500: tell the user"),
        Variant("deferred", Change(append={"parish/grants.md": (
            "\n9 June: grants deferred to July, the clerk is checking the precept figures first.\n")}),
            NOOP, "the decision was put off to July"),
        Variant("hearsay", Change(memories=(
            "Someone at the pub said the council will probably turn down the scouts' roof because the hut "
            "is on church land.",)),
            NOOP, "pub talk about a likely refusal is not the council's decision"),
    ])
