"""A labelled set of task titles and chat messages: does the request's own instruction ask for a change?

How the labels were chosen (DESIGN §2, issue 25): ``write`` when the person asks the assistant itself to change
something — a file, a note or memory, a task, a calendar, a message to someone else, a setting, a program.
``read`` for everything else: looking, checking, finding, counting, summarising, explaining, drafting text to
show, telling the person (notify me, remind me, send me), questions of every kind (about the past too, and
"can you tell me …?"), statements and descriptions, and instructions not to change anything. A wrong ``write``
bypasses the approval gate; a wrong ``read`` costs one click on a card, so where a request could be read either
way it is labelled by what it asks for, not by what it might lead to.

Written the way people write: short and long, polite and blunt, lowercase, typos, lists, schedules and
conditions, several sentences, quotes. ``kind`` is ``task`` (a task title) or ``chat`` (a message).
"""

from __future__ import annotations

from typing import NamedTuple


class Phrasing(NamedTuple):
    kind: str
    intent: str
    text: str


def _many(kind: str, intent: str, texts: str) -> list[Phrasing]:
    """One phrasing per non-blank line of ``texts``: ``\\n`` inside a line stands for a line break, and a line
    that ends with `` +`` goes on on the next one."""
    joined = texts.strip().replace(" +\n", " ")
    return [Phrasing(kind, intent, line.strip().replace("\\n", "\n")) for line in joined.splitlines()
            if line.strip()]


# The six everyday read requests measured from outside (issue 25) that the old keyword rule read as writes.
MEASURED = (
    "Investigate the error logs",
    "Please look into the state of the backups",
    "Keep an eye on the open pull requests",
    "How many files are in the project folder",
    "Why did the backup fail last night?",
    "Any news on the file I shared with Anna?",
)

READ_TASKS = _many("task", "read", """
Investigate the error logs
Please look into the state of the backups
Keep an eye on the open pull requests
How many files are in the project folder
Check urgent emails
Monitor the free disk space
Summarize the new memories from today
Tell me when the parcel in tracking.txt is delivered
Tell me when report.md mentions a deadline
Check whether the backup finished
Watch the downloads folder for new invoices
Let me know if the server goes down
Every morning, summarize what changed in my notes
Every Monday at 9, list the tasks that are overdue
Remind me to call the dentist on Friday
Notify me when Anna replies
Alert me if the disk is more than 90% full
Track the price of the flight to Lisbon
Look out for emails from the landlord
See if there are any new comments on my blog post
Check if the invoice from Acme was paid
Find out whether the package shipped
Review the pull requests waiting for me
Compare this week's expenses with last week's
backup status
error logs from last night
Unread messages from my boss
the open pull requests
Shared files from this week
Daily digest of the news feed
Morning summary of my calendar
Weekly report on disk usage
If the backup fails, tell me
When a new file lands in inbox/, let me know what it is
If Anna sends the contract, summarize it for me
Whenever the build breaks, show me the error
Once the parcel is delivered, notify me
Check the logs and tell me if anything looks wrong
Scan the notes for anything about taxes
Figure out why the sync keeps failing
Keep an eye on the shared folder
Watch for updates to the project roadmap
Count the open tickets
Please check the inbox every hour
Please tell me if the invoice is overdue
Check whether Anna sent the contract and tell me what it says
See whether the post went live
Tell me if the update was installed
Check if anything was deleted from the shared drive
Let me know when the order ships
Keep me posted on the build status
Ping me if the site is down
Email me a summary every Friday
Send me the weekly numbers every Monday
Text me when the parcel arrives
Message me if the backup fails
Report on the disk usage every Sunday
Verify that the backup archive is complete
In the morning, check the weather and tell me if I need an umbrella
At 6pm every day, summarize the unread messages
On Fridays, review what I got done this week
Before the meeting, read the agenda and give me the key points
After each backup, verify it and report problems to me
Every hour: check the website is up
daily: disk space check
Weekly: look over the expenses
Check the status of the open orders
Watch the open issues on the repo
Look at the new posts in the forum
Check the shared calendar for changes
Keep an eye on the logs for errors
Check the backup logs and let me know if anything failed
Go through the inbox and tell me what needs my attention
Check if I replied to Anna's email
Look up the tracking number for my order
See what's new on the project board
check the logs pls
look at the backups
watch disk usage
new invoices?
Keep track of the deploys this week
Follow the discussion on the login bug
Look for changes to the lease in docs/
Check that the nightly sync copied everything
Check whether the newsletter was sent
Make sure the backup ran and tell me if it didn't
When the report is updated, tell me what changed
If someone posts in the team channel, summarise it for me
Tell me whenever a file is deleted from shared/
Check for new replies to my forum post every evening
Monitor the upload queue
Flag anything unusual in the bank statements to me
""")

READ_CHATS = _many("chat", "read", """
Why did the backup fail last night?
Any news on the file I shared with Anna?
Read the changelog and tell me what's important
Which meetings do I have tomorrow?
What did Anna say about the budget?
When is the lease up for renewal?
Is the nightly backup still running?
Did the report get sent to the team?
Has anyone replied to my post on the forum?
Were there any failed logins last night?
What changed in the project since yesterday?
Any new invoices in the inbox?
Status of the deploy?
Look through my notes for the wifi password
Estimate how long the migration will take
Explain what the cron job in crontab.txt does
Summarise the meeting notes from Tuesday
Give me an overview of the changes in the repo
Show me the last five emails from Bob
List the files I edited today
Tell me whether I should renew the domain
Should I delete the old drafts?
Can you tell me what's in notes.md?
Could you check whether the email to Anna went out?
Can you see if the backup ran?
Could you look at the error logs for me?
I'd like you to review the contract in docs/lease.md
I want you to check the calendar for conflicts
What's the weather going to be like tomorrow?
How do I rename a file in Linux?
How can I delete my account?
What's the best way to back up my photos?
Is it safe to remove the cache folder?
Would it make sense to archive the old projects?
Do I need to update the README?
Why was the meeting cancelled?
Who changed the budget spreadsheet?
Where did I save the tax documents?
What time was the last backup?
how many unread emails do i have
whats new in the inbox
any updates on the deploy
did the cron job run
is anna's reply in yet
The backup failed last night.
My landlord sent a new lease.
I deleted the old drafts yesterday.
The team posted the release notes.
Anna shared a file with me this morning.
Thanks, that's all for now.
Great, thanks!
Hello
Good morning! What's on today?
Don't delete anything, just tell me what's taking up space
Do not send anything yet, show me the draft first
Never change the files in archive/, only read them
Draft a reply to Tom's email and show it to me
Write a short poem about autumn
Write a summary of the meeting notes
Translate the intro of README.md into German
Compose a polite message declining the invitation
Make a list of the things I need for the trip
Create a summary of this week's activity
Suggest a better title for my blog post
Recommend which old files I could delete
What would happen if I removed the cache?
Tell me which emails need a reply
Find the email titled "Delete your account"
Search my notes for "send invoice"
Look for files named 'backup' in the project folder
Give me the list of overdue invoices
Analyse the sales figures in data/sales.csv
Inspect the config for typos
Double-check the numbers in the budget
Proofread my cover letter in docs/letter.md
Can you help me understand the error in build.log?
Help me figure out why the tests fail
Walk me through the changes in the last commit
What are the steps to publish the app?
Is there anything I should reply to today?
Anything urgent in my inbox?
What's taking up the most space on the disk?
Which of my tasks are overdue?
how's the backup doing
Backups ok?
files in the project folder?
logs?
Look into why the upload failed
Dig into the failed payments from last week
Research cheap flights to Rome in May
Find me a good restaurant near the office
Check on the status of my order
Tell me about the notes I took yesterday
Remind me what I wrote about the garden plan
What did I save in memory about Anna?
Do I have anything scheduled for Friday?
Which files did the sync change?
Were any files removed from the backup?
Why did the post get deleted?
Who archived the project?
When was the report last updated?
How often does the backup run?
Tell me how to set up a cron job
Explain how to archive old emails in Thunderbird
Show me how to send a file with scp
What's the command to delete a git branch?
Can you explain what "rm -rf" does?
Read the latest updates from the team
Review the drafts folder and tell me which ones are finished
Find out who sent the invoice
1. check the backups\\n2. tell me which ones failed
- summarize the inbox\\n- list anything urgent
Hi! I was wondering if you could have a look at the project folder and tell me how many files there are, +
and whether any of them haven't been touched in a year. Thanks!
I'm going on holiday next week. Can you tell me what's due before then?
So the backup failed again last night and I have no idea why. Any idea what's going on?
Looking at the logs, something seems off with the sync. What do you think?
My boss wants the report by Friday. What's still missing from it?
I need to send the report to Anna by Friday. What's still missing?
Before I delete the old drafts, can you tell me which ones I haven't opened in a year?
I'm thinking about archiving the old projects. Which ones haven't changed since last year?
Should we post the release notes today or wait?
What would you add to this list?
Is it worth backing up the photos to the cloud?
chek the logs
whats the status of teh backup
any news on the file i shared w anna
can u tell me whats in the shopping list
hey, how did the upload go
quick question: where are the invoices from march?
Can you check if Bob moved the meeting?
What did I add to the shopping list yesterday?
Who deleted the shared folder?
Did you send the email to Anna?
Have you archived the old logs yet?
Was the invoice paid?
Tell me what you would delete to free up space, but don't delete anything
Show me the draft before you send anything
What's the difference between archiving and deleting an email?
I sent the report to Anna yesterday, did she reply?
Remind me, what's the wifi password?
open questions from the last meeting?
Post mortem of yesterday's outage: what went wrong?
Update on the migration?
Order status for the new laptop?
File sizes in the downloads folder?
Any changes to the schedule this week?
""")

WRITE_TASKS = _many("task", "write", """
Send the weekly report to Alex
Delete the old drafts in the notes folder
Create a shopping list in notes/shopping.md
Every morning, append the weather to notes/weather.md
Every Friday, archive the newsletters
When a new invoice arrives, file it under invoices/
If the backup fails, restart it
If Anna replies, forward her email to Bob
Whenever a new PDF lands in downloads/, move it to documents/
Once the parcel is delivered, mark the order as done in orders.md
Check the logs and delete anything older than a week
Look at the inbox and archive the newsletters
Check whether Anna replied and send her a reminder if not
Backup the database every night
Sync the notes with the laptop
Upload the photos to the shared album
Install the security updates
Stop the nightly sync
Mark all newsletters as read
Label the emails from the bank as finance
Notify the team when the build breaks
Remind Anna about the deadline on Friday
Every evening at 8, back up notes/ to backups/
At midnight, delete the files in tmp/
Daily: append the date to journal.md
When Bob sends the slides, save them in presentations/
If the disk is almost full, delete the oldest backups
As soon as the report is ready, email it to the team
Keep a log of my expenses in expenses.md
Clean up the downloads folder every Sunday
Post the daily standup summary to the team channel
Reply to new support emails with the holiday notice
Move new screenshots into the pictures folder
Delete tmp files older than a day
Tidy up the notes folder once a week
Every Monday, create a new page for the week in journal/
Add the day's weather to the weather log
Rename new photos by the date they were taken
Archive newsletters older than a month
Check disk space and clean up the temp folder if it's low
Record the daily step count in health.md
Log my working hours in timesheet.md every evening
If the site is down, restart the web server
Save every new invoice to finance/invoices/
Check the inbox, and reply to anything from Anna
""")

WRITE_CHATS = _many("chat", "write", """
Append "buy milk" to todo.md
Add milk to my shopping list
Please archive the newsletters older than a month
Can you send Anna the meeting notes?
Could you delete the duplicate photos?
Would you mind moving the invoices into the finance folder?
I want you to rename report.md to report-2024.md
I'd like you to update the README with the new install steps
Go ahead and publish the blog post
What's in notes.md? Add a line saying the meeting moved to 3pm.
Reply to Tom's email saying I'll be late
Forward the invoice to accounting
Post the release notes to the team channel
Write the summary to notes/summary.md
Save the meeting notes as docs/meeting-2024-05-01.md
Remember that my dentist appointment is on Friday at 10
Remember that Anna prefers tea
Note that the meeting moved to Thursday
Schedule a meeting with Anna for Friday afternoon
Book a table for two at 7pm
Cancel my subscription to the newsletter
Unsubscribe me from the marketing emails
Pay the electricity bill
Order more printer ink
Buy the train tickets to Berlin
Move the screenshots into the pictures folder
Rename the folder "misc" to "archive"
Clean up the downloads folder
Tidy up my notes
Organize the photos by year
Sort the files in inbox/ into folders by type
Back up the notes folder to the external drive
Download the latest report from the portal
Restart the web server
Turn off the notifications for the newsletter
Set the status to away
Tag the photos from the trip with "holiday"
Assign the bug to Bob
Close the ticket about the login bug
Open an issue about the broken link
Commit the changes and push them
Merge the pull request once the tests pass
Fix the typo in README.md
Edit the intro of the blog post to make it shorter
Change the meeting title to "Planning"
Replace "colour" with "color" in docs/style.md
Insert today's date at the top of journal.md
Put the receipt in the expenses folder
Copy the contract into the shared folder
Duplicate the template for next week's report
Export the contacts to contacts.csv
Convert the notes to PDF
Email the report to Anna
Email Bob about the delay
Message the team that the deploy is done
Text Anna that I'm running late
Tell Anna that I'll be late
Let Bob know the meeting is cancelled
Ask Anna for the slides
Invite Bob to the planning meeting
Share the folder with Anna
Accept the meeting invitation from Bob
Decline the call on Thursday
please delete the old logs
pls send the invoice to accounting
can u archive the old emails
delete tmp.txt
add a task to call mom tomorrow
add "renew passport" to my todo list
log my hours for today in timesheet.md
record today's weight in health.md
file the receipts under 2024/
update the budget spreadsheet with this month's numbers
write down that the plumber comes on Tuesday
Make a note that the car needs servicing
Create a folder called projects/2024
Create a new task to review the budget every Monday
Set up a reminder for the dentist on Friday
Make a copy of the presentation
Draft an email to the landlord and send it
Summarize the meeting and save it to notes/meeting.md
Translate README.md into French and save it as README.fr.md
Find the duplicates and remove them
Find and delete the empty files in notes/
Read the invoice and add the amount to expenses.csv
Look at the errors; if it's the cache again, clear it
Did the backup run? If not, run it now.
Is the site down? If so, restart the server.
Can you check the logs and then delete the old ones?
Could you please forward this to Bob?
Would you please reply to Anna and say yes
Just delete it
Go ahead and send it
Yes, send it
OK, archive them all
Now move the rest to archive/
Also add Bob to the invite list
Then rename the file to final.md
Let's publish the post tomorrow morning
Remove the duplicate entries from contacts.csv
Empty the trash
Wipe the old backups from the disk
Overwrite config.old with the current config
Write to Anna and ask whether the slides are ready
Respond to the client's email with the quote
Comment on the pull request that it looks good
Approve the pull request
Submit the expense report
Fill in the timesheet for this week
Print the boarding pass
Put "call mom" on my todo list
Bump the version number in pyproject.toml
Publish the release
The meeting moved to Thursday. Please update my calendar.
Anna asked for the report. Send it to her.
I've finished the draft. Can you post it to the blog?
Thanks! Now delete the old version.
- archive the newsletters\\n- tell me what's left
1. check the backups\\n2. delete the ones older than a month
What's in the shopping list? Also add eggs.
Tell me what's new and then archive the newsletters
Check the inbox; forward anything from the bank to Anna
Get rid of the empty folders in downloads/
Please could you move the old invoices to archive/?
It would be great if you could clean up the downloads folder
I'd appreciate it if you could send the slides to Bob
delte the old logs
pls archvie the newsletters
Sign me up for the newsletter
Stop sending me the daily digest
Restore notes.md from yesterday's backup
Undo the last change to todo.md
Mute the team channel until Monday
Pin the meeting notes in the channel
Reschedule the dentist to next week
Grant Bob access to the shared folder
""")

# A second batch, written after the rules above existed and measured on them before any rule changed (6 of 149
# reads came out "write", 84.8 % of 145 writes were found); the rules were then corrected and the batch kept.
READ_TASKS_2 = _many("task", "read", """
Before you delete anything, ask me
""")

READ_CHATS_2 = _many("chat", "read", """
What's going on with the deploy?
Take a look at the failing tests
Have a look at my calendar for next week
Give the error logs a once-over
Could you go over the contract and point out anything weird?
Scan my inbox for anything from the tax office
I'd like a summary of the last three meetings
Need a quick overview of the repo
Fetch the latest exchange rates
Pull up the notes from the kickoff meeting
Get me the numbers from last quarter
Grab the latest logs and tell me what broke
Where are we on the migration?
status?
Backup report
Post-deploy checks
Deleted files in the last week
Archive status
Update: the server is back up
FYI the backup finished
Heads up: Anna is out tomorrow
Just checking in — did the upload finish?
Curious whether the invoice went through
Wondering if anyone replied to my post
Not sure the backup worked, can you check?
Something's wrong with the sync, any idea?
The upload keeps failing. Help?
Check my schedule and let me know when I'm free on Friday
Look at the sales data and find the best month
Tell me the top 3 things I should do today
Remind me of my appointments this week
Notify me of any new invoices
Ping me when the build is green
Alert me about large transactions
Keep me updated on the parcel
Keep tabs on the competitor's prices
Watch out for phishing emails
Stay on top of the open support tickets
Look after the inbox while I'm away and tell me about anything urgent
Go through my notes and find everything about the garden
Any idea why the email bounced?
How long has the server been up?
Can you find the contract Anna sent?
Could you pull the latest numbers for me?
Would you summarise the thread for me?
Will you check the backups tonight?
Please review the draft in notes/draft.md and tell me what to improve
I want to know how much I spent on food last month
I'd like to know who changed the config
Need to know if the payment cleared
Do you know when the lease ends?
Do we have a backup of the photos?
Is there a copy of the contract somewhere?
Are there any duplicates in my contacts?
Show the files changed today
Display the list of tasks
List all files larger than 100MB
Sum up the hours in timesheet.md
Add up the expenses for March
Calculate the total of the invoices
Work out how much I owe Bob
Figure out which files are duplicates
Identify emails that need a reply
Spot anything odd in the logs
Find files I haven't opened in a year
Find the delete button in the settings
Search for 'remove' in the codebase
What does 'archive' mean in Gmail?
Explain the difference between git merge and rebase
Why would someone delete a branch after merging?
How do I send an email with an attachment from the terminal?
What's the best way to organize my notes?
Tips for cleaning up my inbox?
Ideas for the team offsite?
Summary of what happened while I was away
Changes since Monday
New files in downloads
Open tickets assigned to me
Open PRs that need review
Close friends' birthdays this month
Clean code reviews pending
Sort order of the files?
Set of files that changed
Record of my workouts this month
Log of failed logins
Post about the release on the blog — did it go out?
Update from the team?
Email from the bank about my card
Message from Anna?
Text from mom
Reply from the landlord?
Share of revenue by region
Order history for the last year
Book recommendations for the holiday
Schedule for next week?
Change log for version 2
Backup of the database: is it recent?
Copy of the lease?
Draft of the proposal: what's missing?
Print jobs stuck in the queue
Drop in sales last month: why?
Clear skies tomorrow?
Empty folders in downloads?
Star ratings of the app
Pin code for the door
Tag line for the website
Label colors in Gmail
Store hours on Sunday
Process for getting reimbursed?
Fix for the login bug?
Plan for tomorrow
Plan my week
Answer the question in notes/q.md
Correct me if I'm wrong, but the backup runs at 2?
Fill me in on the meeting
Clear up some confusion: what's the difference between archive and delete?
Pin down why the tests fail
Can I archive the old emails safely?
Should the old logs be deleted?
Would deleting the cache help?
Is deleting the branch safe?
Deleting old logs: good idea?
Removing the cache folder — safe or not?
Archived emails from 2022
Sent folder size
The report was sent, right?
Anna wants me to send her the slides. When's the deadline?
My manager asked me to archive the old projects. Which ones are old?
Someone deleted the shared folder. Who was it?
Bob said 'delete the old branch'. Should I?
I'm going to delete the old logs. Anything I should keep?
I'll send the report later, just tell me what's missing
I might archive the project, what do you think?
Never send emails without asking me
Don't archive anything, just list what you would archive
Without changing anything, tell me what's wrong with the config
Read-only please: what's in notes.md?
Just looking: how big is the downloads folder?
Dry run: which files would the cleanup delete?
What if we deleted the old branches?
Can you tell me whether to delete the old branches or keep them?
Tell me which emails to archive and which to keep
Find out if I should renew the domain and how much it costs
Let me know if I need to update anything
Let me know what you'd change in the README
Let the backup finish before checking it
Leave the old files alone, just tell me their sizes
Keep everything as it is and tell me what you find
""")

WRITE_TASKS_2 = _many("task", "write", """
Every weekday at 8am, post the standup reminder in #team
On the first of each month, archive last month's invoices
When the invoice is paid, move it to paid/
If Bob hasn't replied by Friday, send him a reminder
If there's a new version, install it
Once a week, clean up the tmp folder
After the meeting, send the notes to everyone who attended
Whenever someone mentions me in #general, save the message to mentions.md
""")

WRITE_CHATS_2 = _many("chat", "write", """
Clear the cache
Get rid of the old backups
Throw away the old drafts
Bin the spam
Nuke the tmp folder
Kill the stuck sync job
Move tomorrow's meeting to 3pm
Push the meeting back an hour
Reply to Anna: sounds good
Send a thank-you note to Bob
Shoot Bob a message saying I'm late
Drop Anna a line about the invoice
Let the team know the server is back
Give Bob edit access to the doc
Add Anna to the project
Put the meeting in my calendar
Put a reminder in my calendar for the dentist
Block off Friday afternoon in my calendar
Create an event for the team lunch on Friday
Make a folder for the tax documents
Start a new page in my journal
Turn the notes into a checklist
Rewrite README.md so it's shorter
Shorten the intro in post.md
Append today's notes to journal.md
Prepend a title to notes.md
Insert a table of contents into README.md
Strip the trailing spaces from all the .md files
Format the JSON in config.json
Fix the broken links in the docs
Correct the spelling in letter.md
Update my address in the contacts
Change my status to busy
Set my out-of-office reply
Switch the theme to dark
Enable two-factor on the account
Turn on the nightly backup
Pause the sync until Monday
Resume the upload
Cancel the 3pm meeting
Reschedule my call with Bob to Friday
Decline all meetings on Friday
Accept Bob's invite
RSVP no to the party
Order a pizza for 7pm
Book me a flight to Rome on May 3
Buy more coffee
Renew the domain for another year
Pay Bob back for lunch
Transfer 50 euros to Anna
Donate to the charity
Submit the form
Fill out the survey
Sign the NDA
Approve Bob's expense report
Merge the dependabot PRs
Deploy the latest version to staging
Roll back the last deploy
Revert the last commit
Tag the release as v1.2
Close all the stale issues
Open a new branch for the fix
Label the new issues as bugs
Assign the open tickets to me
Mark the invoice as paid
Star the email from the bank
Flag the suspicious emails
Mute notifications from the group chat
Unsubscribe from all newsletters
Block that spam number
Report the phishing email to IT
Forward the confirmation to my wife
Send my wife the confirmation
Text my brother happy birthday
Email the team the meeting notes
Message Bob on Slack
DM Anna the link
Ping the team about the outage
Remind the team about standup
Notify Bob that the build is fixed
Warn everyone about the outage
Save this conversation to notes/chat.md
Save Anna's number
Store the API docs link in memory
Remember my wifi password is hunter2
Remember: Bob is allergic to nuts
Keep a running list of my expenses in expenses.md
Log today's run: 5km in 28 minutes
Jot down that the plumber is coming Tuesday
Write this down: the garage code is 4321
Add a note to the project file
Make a backup of the photos folder
Duplicate the slide deck for the next meeting
Rename all screenshots to include the date
Zip up the project folder and upload it
Move everything older than a year to archive/
Archive everything from 2022
Delete all my old tweets
Remove Bob from the mailing list
Unshare the folder with the contractor
Revoke the old API key
Rotate the API keys
Reset my password on the router
Restart the raspberry pi
Install the new version of the app
Update all the packages
Upgrade node to version 20
Download the invoices from the portal into finance/
Upload the report to the shared drive
Sync my phone photos to the NAS
Back up my documents tonight
Export my calendar as an .ics file
Import the contacts from contacts.csv
Print two copies of the contract
Check the weather and if it's going to rain, add an umbrella reminder to my todo list
Read my emails and file the receipts in finance/
Summarize the inbox and email the summary to Anna
Go through the downloads folder and delete anything older than a month
Look for duplicates in photos/ and remove them
Find Bob's email and forward it to Anna
Check whether the domain expires soon and renew it if so
Could you archive the newsletters, please?
Would you be able to send the deck to Bob?
Any chance you could clean up the downloads folder?
Mind renaming the file to final.md?
Please, please delete the spam
delete all the spam pls
rm the tmp files
plz move the pics to photos/
send anna the notes
fwd this to bob
reply yes to the invite
archive pls
Add 'dentist' to Friday in my calendar
Cross off 'milk' from the shopping list
Tick off the first item in todo.md
Check off the done items
""")

# A third batch, written the same way (reads chosen to be hard: editing text pasted into the message, quoted mail,
# hypotheticals, nouns that are verbs elsewhere). Measured before any rule changed: 21 of 151 reads came out
# "write", all 66 writes were found. The rules were corrected and the batch kept.
READ_TASKS_3 = _many("task", "read", """
When did I last back up my phone?
If I delete the branch, can I get it back?
If you were me, would you send the email?
When should I renew the certificate?
When does the backup run?
When the parcel arrives, what happens next?
After I archive the emails, where do they go?
Once the files are deleted, are they gone for good?
""")

READ_CHATS_3 = _many("chat", "read", """
Can you take a look at the backups and tell me if they're ok?
What's the latest on the server migration?
Give me a rundown of today's emails
Quick summary of my week please
What do I have going on tomorrow?
anything i should know about?
what needs my attention today
Did anything break overnight?
How are the backups looking?
What's up with the build?
Is everything OK with the sync?
Why is my disk full?
What's eating all my disk space?
Where's the invoice from Acme?
Who sent me the contract?
How much did I spend on groceries?
What's in the notes folder?
Which notes mention the garden?
Can you find my passport number in my notes?
Look up what I wrote about the dentist
Pull the last 10 lines of the error log
Check how many emails are unread
Double check the backup size
Confirm the backup ran last night
Confirm that the invoice was sent
Make sure the website is still up
Verify the files were copied correctly
Test whether the link still works
See if Anna's available Friday
Find out what time the store closes
Research the best backup tools for Linux
Compare the two drafts and tell me which is better
Point out any typos in the README
Highlight the important parts of the contract
Summarize the changes in CHANGELOG.md
Explain this error: permission denied when writing to /var/log
What does this log line mean: 'failed to delete temp file'?
Here's the error I got: cannot remove file. What's wrong?
Bob wrote: please send the report by Friday. What should I reply?
The email says 'please confirm your account'. Is it phishing?
Got a message from the bank asking me to update my details. Legit?
My sister asked me to send her the photos. Where are they?
I was asked to archive the project. What's in it?
I have to delete some files to free space. Which are the biggest?
We should probably clean up the repo at some point. How messy is it?
Someone needs to update the docs. Which pages are outdated?
The old logs need deleting. How much space do they take?
It's time I cleaned up my inbox. How many emails are there?
Let's see what's in the downloads folder
Let's check the backups together
Let me see the latest report
Let me know what you think of my plan
Help me decide whether to delete the old photos
Help me organize my thoughts on the project
Teach me how to use git rebase
Show me what changed in the config
Tell me a joke
Write me a haiku about backups
Write a cover letter for the job at Acme
Write an email to my landlord about the leak
Draft a message to the team about the outage
Prepare the agenda for Monday's meeting
Generate a report of last month's expenses
Create a plan for the garden
Make me a packing list for the trip
Come up with a name for the project
Brainstorm ideas for the blog
Outline the steps to migrate the database
List my open tasks
Show all tasks that write files
Count how many times the backup failed this month
Rank the pull requests by age
Sort these by date: 3 May, 1 April, 2 June
Organize these ideas into a list: garden, taxes, car
Format this as a table
Convert 72F to celsius
Translate 'delete' into Spanish
Rephrase this paragraph to sound friendlier
Fix the grammar in this sentence: me and him goes to the shop
Clean up this text: teh quick brwon fox
Edit this paragraph to be shorter: the quick brown fox jumps over the lazy dog
Change the tone of this email to be more formal
Add 15% tip to 84 dollars
Remove the duplicates from this list: apples, pears, apples
How would you reply to this email?
What should I say to Anna?
Suggest a reply to Bob's message
Is this email a scam? 'Click here to verify your account'
Can you read notes/todo.md to me?
Read me the last email from Anna
Open notes.md and tell me what's in it
Open the latest report
Run me through the plan
Run the numbers on last month's sales
Run a quick check on the disk
Start with the most urgent emails
Start by listing the large files
Stop and tell me what you found
Keep going
Keep it short
Give me a hand with the budget
Set me straight on how cron works
Record how long the backup takes
Log into the dashboard and tell me the numbers
Note how long each step takes
Track down the missing invoice
Check in on the backup job
Look into it
Any chance you could tell me what's in the inbox?
Would you tell me how many files there are?
I'd like you to tell me when the parcel arrives
I need you to look at the contract
Go ahead and check the logs
Feel free to look through my notes
Please don't change anything, just report what you find
Just tell me, don't fix it
No need to reply, just tell me what Anna said
Ignore the spam folder and summarise the rest
Skip the newsletters, what else is new?
Leave it as is
Hold off on sending anything
Wait until tomorrow before you delete anything
Pretend you're my accountant and review my expenses
Imagine we deleted the cache; what would break?
Suppose I archive the project. Can I still search it?
In case the backup fails, what should I do?
Tell me when to send the invoice
Tell me what to pack
Send me a list of my tasks
Email me if anything breaks
Text me the address
Send the summary to me every morning
Forward me anything urgent
Show the team's calendar
Share your thoughts on the proposal
Give me your opinion on the draft
Check the spelling of 'accommodate'
Backup strategy for my laptop?
Update frequency of the backup?
Delete vs archive: which is better for old emails?
Remove vs delete in git?
Send later feature in Gmail?
Archive.org has old versions of my site?
""")

WRITE_TASKS_3 = _many("task", "write", """
Every night at 11, back up the notes folder
When someone emails about the invoice, reply with the payment link
If the backup is older than a day, run it again
Whenever a receipt arrives, file it in finance/
On Sundays, clean up the tmp folder
""")

WRITE_CHATS_3 = _many("chat", "write", """
Archive the old newsletters for me
Can you get rid of the duplicates in photos/?
Clear out my downloads folder
Please go ahead and delete the temp files
Delete the last three entries in log.md
Send the agenda to everyone on the invite
Reply all with a thumbs up
Forward Anna's email to the accountant
Add 'call plumber' to tomorrow's tasks
Schedule the backup for 2am every night
Create a recurring task to check the lease every month
Set an alarm for 6am
Remind Bob to bring the charger
Tell the landlord the heating is broken
Let Anna know I'm on my way
Cancel tomorrow's standup
Move all PDFs from downloads/ to documents/pdf/
Rename the photos from the trip to trip-001.jpg, trip-002.jpg and so on
Compress the videos folder
Unzip the archive into projects/
Install ripgrep
Update the packages on the server
Restart the sync service
Turn off wifi at midnight
Enable dark mode
Disable the nightly backup
Change the wallpaper
Lock my screen
Empty the downloads folder
Clean up my inbox
Organize my notes by topic
Sort my downloads into folders
Tidy the desktop
Save this as notes/idea.md
Append the result to results.csv
Write the list to shopping.md
Put today's weather in weather.md
Make a new folder called invoices-2024
Create notes/ideas.md with a heading
Edit config.toml and set the port to 8080
Fix the broken link in README.md
Change the port in config.toml to 8080
Remember that I'm allergic to penicillin
Note down my new phone number
Log 30 minutes of reading for today
Mark task 3 as done
Check off 'eggs' on the shopping list
Book a dentist appointment for next Tuesday
Order the usual from the pizza place
Pay the rent
Submit my timesheet
Approve the pending requests
Merge Bob's branch into main
Push the changes to GitHub
Commit everything with the message 'wip'
Publish the draft post
Post a tweet about the launch
Share the photos with the family
Invite the team to the retro
Block the spam caller
Unsubscribe from the Acme newsletter
""")

# A fourth batch, in the words of the app's own domain (workspace files, memories, tasks). Measured before any
# rule changed: 2 of 100 reads came out "write", 29 of 30 writes were found; corrected and kept.
READ_TASKS_4 = _many("task", "read", """
Keep watch over the shared drive
Monitor the CPU temperature
Watch the temperature of the server room
Track when the parcel moves
Keep an eye on my website's uptime
Watch for messages that mention the launch
Monitor new files in the uploads folder
Report any failed backups
Report daily on the number of open tickets
Notify me about overdue invoices
Keep me in the loop about the migration
Every morning tell me the weather
Every evening, give me a summary of what changed
Each Friday at 5pm, summarise the week
On weekdays at 9, list my meetings
Twice a day, check the website is up
At noon, check the inbox for anything from the bank
When the build fails, show me the last error
If the disk fills up, warn me
Whenever Anna emails, tell me what she wants
As soon as the invoice arrives, let me know
Once the download finishes, tell me where it is
New emails from the bank
Open invoices
Overdue tasks
Failed backups this week
Pending approvals
Latest changes to the README
Files modified today
Notes from the meeting with Anna
Unanswered emails
Recent memories
""")

READ_CHATS_4 = _many("chat", "read", """
Scan the workspace for large files
What is my most recent note about?
Tell me what's inside the config folder
Give me the gist of report.md
Are any of my tasks failing?
Has the heartbeat run today?
Look over last week's journal entries
Summarise what I did yesterday
Read through todo.md and tell me what's left
Go over my expenses for May
Look at the log and tell me about errors
What's new since my last visit?
Check what's changed in the workspace
Check on my tasks
How's my todo list looking?
Show me the tasks you run every tick
Which tasks can write files?
Look for notes tagged 'urgent'
Any notes about the car?
Find notes that mention Anna
What do my notes say about the budget?
Tell me everything you remember about Bob
What did we talk about yesterday?
What's in memory about my preferences?
Search memory for the dentist
Review the contract and flag anything risky
Skim the newsletter and give me the highlights
Dig up the old address for the office
Fetch the README and explain the setup steps
Look at notes/plan.md; is anything missing?
Double-check my math in budget.md
Cross-check the invoice totals against the bank statement
Look at the git log and tell me who committed last
Where's the backup stored?
Whats the newest file in downloads
how big is notes.md
whens the next backup
did u check the logs
r there any new files
u still there?
Was anything archived last night?
Why were my files moved?
Who added this task?
How did the sync go?
What happened to the shared folder?
What would you change in my CV?
Could you suggest a name for the new folder?
Can you recommend what to archive?
What do you suggest I delete?
I'm wondering whether to delete the old photos
I'm not sure whether I sent the invoice
I think the backup is broken
I think I deleted the wrong file
It seems the sync deleted some files
Apparently someone archived the project
Help me write a reply to Anna
Help me clean up my thoughts about the trip
Write a short update for the team that I could send
Draft a tweet about the launch
Prepare a reply to the landlord, but don't send it
Suggest changes to the README
Tell me how you would reorganize my notes
Propose a new folder structure
Explain how to restore a file from the backup
How do I undo the last commit?
What does the delete button in the tasks tab do?
Would archiving the old emails speed things up?
Is there an update available?
""")

WRITE_TASKS_4 = _many("task", "write", """
Every morning, append the date to journal.md
When a file lands in inbox/, move it to sorted/
If report.md mentions a deadline, add it to deadlines.md
""")

WRITE_CHATS_4 = _many("chat", "write", """
Delete notes/old.md
Move notes/draft.md to archive/
Add "pay rent" to todo.md
Append a line to journal.md saying I went running
Remove the line about milk from shopping.md
Create notes/trip.md with a packing list
Write "hello" into greeting.txt
Save a note that the garage code changed
Remember that Bob's birthday is on March 3
Store my passport number in memory
Forget what I told you about Bob
Add a task to check the mail every morning
Create a task that archives old logs every week
Turn off the task that checks the weather
Disable the backup check task
Rename the task about the weather to 'Weather report'
Schedule a reminder to renew the passport in May
Check the inbox and save any receipts to receipts/
Summarise today's notes into summary.md
Clean up the empty lines in notes.md
Replace all tabs with spaces in notes.md
Delete everything in tmp/
Copy todo.md to todo-backup.md
Send Anna a reminder about the slides
Email the summary to Bob every Friday
Post the weekly summary in the team channel
Reply to Anna's message with a yes
""")

# A fifth batch: reads worded the way a test of "no write tool offered" might word them (show, print, ping, send it
# here, one-word questions), found by probing after the fourth batch: 16 of 39 came out "write"; corrected and kept.
READ_CHATS_5 = _many("chat", "read", """
Open the budget spreadsheet and tell me the total
Pull the latest sales numbers
Go fetch the weather
Print the contents of notes.md
Print the list of tasks
Display the tasks
Fetch me the logs
Load the config and check it
Grep the logs for errors
Ping the server
Ping google.com and tell me the latency
Check the mail
Test the backup restore
Measure the disk usage
Show me how to set up a VPN
Post the link here
Drop the link in the chat
Update me on the project
Bring me up to speed on the migration
Catch me up on what happened
Share the latest numbers with me
Send over the latest numbers
Send it here
Write up what you found
Make sense of these logs
Sort out why the build fails
Give me a status update
Hand me the latest report
Summarize and send me the highlights
Look at the inbox and send me anything urgent
Forward me anything from the bank
Email the summary to myself
Copy the text of notes.md here
Read out the last entry in journal.md
Export? What formats can I export to?
Restart? Why did it restart?
Backup done?
Archive?
Delete button doesn't work, why?
""")
WRITE_CHATS_5 = _many("chat", "write", """
Print two copies of the lease for the meeting
Ping Anna about lunch
Share the trip photos with Bob
Send the report to Bob
Write back to Bob
Write down the code
Delete the old logs, please?
If the backup failed, can you restart it?
""")

# A sixth batch: where in a file the words go ("at the end of log.md") is a destination like "into log.md"; a
# place in what the text is about is not (judge3: "Please write these lines at the end of log.md" was read).
READ_CHATS_6 = _many("chat", "read", """
Write a summary of the section at the end of report.md
Write a poem about the end of summer
Summarize the paragraph at the end of notes.md
What should I write at the end of log.md?
Help me write a line for the end of log.md
Tell me what is written at the top of journal.md
""")
WRITE_CHATS_6 = _many("chat", "write", """
Please write these lines at the end of log.md
Write these lines to the end of log.md
Write the following at the top of notes.md: call the bank
Please write these lines into log.md
""")

PHRASINGS: tuple[Phrasing, ...] = (
    *READ_TASKS, *READ_CHATS, *WRITE_TASKS, *WRITE_CHATS, *READ_TASKS_2, *READ_CHATS_2, *WRITE_TASKS_2,
    *WRITE_CHATS_2, *READ_TASKS_3, *READ_CHATS_3, *WRITE_TASKS_3, *WRITE_CHATS_3, *READ_TASKS_4, *READ_CHATS_4,
    *WRITE_TASKS_4, *WRITE_CHATS_4, *READ_CHATS_5, *WRITE_CHATS_5, *READ_CHATS_6, *WRITE_CHATS_6,
)
