// The `ringhook` command; the commands are being added.
console.log('ringhook: commands coming soon')
